/**
 * How each saved pane comes back, decided before anything starts (so `fux restore --dry-run` shows
 * exactly what a restore would do): a shell or any other program runs again with its argv in its
 * cwd; Claude Code and Codex resume their own session; a program the config names in
 * `restore_skip`, or one that cannot start any more, is not restarted: its pane shows its history
 * and `[exited]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertRunnable } from '../pane/program-lookup';
import { definedEnv } from '../../protocol/env';
import { agentOfArgv, findSessions, resumeArgv } from './agent-session';
import type { AgentSession, Journal, SavedPane, SavedWorkspace } from './schema';

export type PaneHow = 'survived' | 'restarted' | 'resumed' | 'not-restarted';

export interface PanePlan {
  id: number;
  /** The tab's id. */
  tab: number;
  how: PaneHow;
  /** What it ran before the restart. */
  saved: string[];
  /** What it runs now. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  session: AgentSession | null;
  /** Why it is not as it was (not restarted, resumed without a session, another cwd); null: as it was. */
  reason: string | null;
  /** What the pane shows before its program's output: its title, its history, the restart marker. */
  preface: string;
  /** survived: the socket of the holder that kept its program running (src/server/holder/). */
  adopt?: string;
}

export interface WorkspacePlan {
  saved: SavedWorkspace;
  /** false: the workspace does not come back (`reason` says why). */
  restored: boolean;
  reason: string | null;
  panes: PanePlan[];
}

export interface PlanOptions {
  /** Program names (`htop`) not to restart (`restore_skip`). */
  skip: readonly string[];
  serverEnv: Readonly<Record<string, string | undefined>>;
  /** Whether a workspace of this name runs already (it is then not restored). */
  exists: (name: string) => boolean;
  now: Date;
  /**
   * The socket of a holder that kept this pane's program running while no server did, claimed for
   * it (src/server/holder/survivors.ts); such a pane is taken back, not restarted.
   */
  survivor?: (workspace: string, id: number) => string | undefined;
}

/**
 * A process that keeps a pane open without running anything: it shows nothing of what is typed;
 * Ctrl-C or Ctrl-D ends it, and with it the pane.
 */
export const HOLDER_ARGV = ['/bin/sh', '-c', 'stty -echo 2>/dev/null; exec cat >/dev/null'];

export function planRestore(journal: Journal, o: PlanOptions): WorkspacePlan[] {
  return journal.workspaces.map((ws) => {
    const damaged = layoutProblem(ws);
    if (damaged) return { saved: ws, restored: false, reason: damaged, panes: [] };
    if (o.exists(ws.name))
      return { saved: ws, restored: false, reason: `a workspace ${ws.name} runs already`, panes: [] };
    const sessions = lookUpMissingSessions(ws.panes, o.serverEnv);
    const panes = ws.panes.map((p, i) => {
      const adopt = o.survivor?.(ws.name, p.id);
      return adopt === undefined ? planPane(p, sessions[i] ?? null, o) : survivedPane(p, adopt, o);
    });
    return { saved: ws, restored: true, reason: null, panes };
  });
}

/** Each tab's layout must hold exactly the panes saved in it, and every pane must be in a tab. */
function layoutProblem(ws: SavedWorkspace): string | undefined {
  const inLayouts = new Map<number, number>();
  const walk = (node: SavedWorkspace['tabs'][number]['layout'], tab: number): void => {
    if ('pane' in node) inLayouts.set(node.pane, tab);
    else {
      walk(node.a, tab);
      walk(node.b, tab);
    }
  };
  for (const t of ws.tabs) walk(t.layout, t.id);
  const panes = new Map(ws.panes.map((p) => [p.id, p.tab]));
  const same = inLayouts.size === panes.size && [...panes].every(([id, tab]) => inLayouts.get(id) === tab);
  return same ? undefined : 'its saved layout does not match its saved panes';
}

/** The session of an agent pane saved before its agent had written one (it was new then). */
function lookUpMissingSessions(
  panes: readonly SavedPane[],
  serverEnv: PlanOptions['serverEnv'],
): Array<AgentSession | null> {
  const probes = panes.flatMap((p, i) => {
    const agent = agentOfArgv(p.argv);
    return agent && !p.session
      ? [{ i, agent, probe: { agent, cwd: p.cwd, env: p.env, since: p.started } }]
      : [];
  });
  const found = findSessions(probes.map((x) => ({ ...x.probe, env: { ...serverEnv, ...x.probe.env } })));
  const out: Array<AgentSession | null> = panes.map((p) => p.session);
  probes.forEach((x, k) => {
    const id = found[k];
    if (id !== undefined) out[x.i] = { agent: x.agent, id };
  });
  return out;
}

function planPane(p: SavedPane, session: AgentSession | null, o: PlanOptions): PanePlan {
  const env = definedEnv({ ...o.serverEnv, ...p.env });
  const notes: string[] = [];
  let cwd = p.cwd;
  if (!isDirectory(cwd)) {
    cwd = env.HOME && isDirectory(env.HOME) ? env.HOME : os.homedir();
    notes.push(`its directory ${p.cwd} is gone; started in ${cwd}`);
  }
  const base = { id: p.id, tab: p.tab, saved: p.argv, cwd, env, session };
  const program = path.basename(p.argv[0]!);
  let how: PaneHow = 'restarted';
  let argv = p.argv;
  let stopped: string | undefined;
  const agent = agentOfArgv(p.argv);
  if (o.skip.includes(program)) stopped = `restore_skip names ${program}`;
  else if (agent && session) {
    how = 'resumed';
    argv = resumeArgv(p.argv, session);
  } else if (agent) notes.push(`no ${agent} session was found for it; started afresh`);
  if (!stopped) {
    try {
      assertRunnable(argv, cwd, env);
    } catch (err) {
      stopped = (err as Error).message;
    }
  }
  if (stopped) {
    how = 'not-restarted';
    argv = HOLDER_ARGV;
    notes.unshift(stopped);
  }
  const reason = notes.length ? notes.join('; ') : null;
  return { ...base, how, argv, reason, preface: preface(p, o.now, stopped) };
}

/** A pane whose program kept running under its holder: the same program, shown after its history. */
function survivedPane(p: SavedPane, adopt: string, o: PlanOptions): PanePlan {
  const env = definedEnv({ ...o.serverEnv, ...p.env });
  return {
    id: p.id,
    tab: p.tab,
    saved: p.argv,
    argv: p.argv,
    cwd: p.cwd,
    env,
    session: p.session,
    how: 'survived',
    reason: null,
    preface: preface(p, o.now, undefined, ' its program kept running'),
    adopt,
  };
}

const DIM = '\x1b[0;2m';
const RESET = '\x1b[0m';

/** The saved title and history, then a dim marker line where the restart was (and `[exited]` for a pane not restarted). */
function preface(p: SavedPane, now: Date, stopped: string | undefined, after = ''): string {
  const title = p.title ? `\x1b]2;${p.title}\x07` : '';
  const history = p.history ? `${p.history.split('\n').join('\r\n')}${RESET}\r\n` : '';
  const marker = `${DIM}── restored ${clock(now)} ──${after}${RESET}\r\n`;
  const exited = stopped ? `[exited] not restarted: ${stopped}\r\n` : '';
  return title + history + marker + exited;
}

/** `17:43:10`, local time: short enough for a narrow pane (the event carries the full times). */
function clock(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
