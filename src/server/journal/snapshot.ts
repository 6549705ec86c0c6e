import type { PaneEntry, Tab, TiledEntry, Workspace } from '../workspace';
import { agentOfArgv, findSessions } from './agent-session';
import {
  JOURNAL_VERSION,
  type AgentSession,
  type Journal,
  type SavedPane,
  type SavedTab,
  type SavedWorkspace,
} from './schema';

/**
 * The agent session each agent pane is in, as last found in the agent's own transcripts. A lookup
 * that finds nothing keeps what was known (a pane resumed a moment ago has not written yet).
 */
export class AgentSessions {
  private readonly known = new WeakMap<PaneEntry, AgentSession>();

  set(entry: PaneEntry, session: AgentSession): void {
    this.known.set(entry, session);
  }

  get(entry: PaneEntry): AgentSession | undefined {
    return this.known.get(entry);
  }

  /** Look again for every agent pane's session. */
  refresh(entries: readonly PaneEntry[]): void {
    const agents = entries.flatMap((e) => {
      const agent = agentOfArgv(e.command);
      return agent ? [{ e, agent }] : [];
    });
    const ids = findSessions(
      agents.map(({ e, agent }) => ({ agent, cwd: e.pane.cwd, env: e.launch.env, since: e.launch.at })),
    );
    agents.forEach(({ e, agent }, i) => {
      const id = ids[i];
      if (id !== undefined) this.known.set(e, { agent, id });
    });
  }
}

export interface SnapshotOptions {
  /** The fux version writing it. */
  fux: string;
  socket: string;
  /** The server's own environment: a pane's saved environment is what it adds to this. */
  serverEnv: Readonly<Record<string, string | undefined>>;
  /** Each pane's saved history (see `historyText`; the writer keeps them between snapshots). */
  history: (entry: PaneEntry) => string;
  sessions: AgentSessions;
  closed: boolean;
  now: number;
  /** The last change record it holds (see change-log.ts). */
  seq: number;
}

/** What saving a pane needs, and where it says the pane is. */
export type PaneSaving = Pick<SnapshotOptions, 'serverEnv' | 'history' | 'sessions'> & {
  cwd: (entry: PaneEntry) => string;
};

/** The journal of these workspaces as they are now. */
export function snapshot(workspaces: readonly Workspace[], o: SnapshotOptions): Journal {
  return {
    version: JOURNAL_VERSION,
    fux: o.fux,
    socket: o.socket,
    savedAt: o.now,
    closed: o.closed,
    seq: o.seq,
    workspaces: workspaces.filter((ws) => ws.panes.size > 0).map((ws) => savedWorkspace(ws, o)),
  };
}

function savedWorkspace(ws: Workspace, o: SnapshotOptions): SavedWorkspace {
  return {
    name: ws.name,
    cols: ws.size.cols,
    rows: ws.size.rows,
    status: Object.fromEntries(ws.status),
    tabs: ws.tabs.map(savedTab),
    activeTab: ws.activeTab?.id ?? null,
    next: ws.nextIds,
    panes: ws.tiles().map((e) => savedPane(e, { ...o, cwd: foregroundCwd })),
  };
}

export function savedTab(tab: Tab): SavedTab {
  return {
    id: tab.id,
    layout: tab.layout.toJSON(),
    recent: tab.layout.recentlyFocused(),
    zoomed: tab.layout.zoomed ?? null,
  };
}

export function savedPane(e: TiledEntry, o: PaneSaving): SavedPane {
  const status = e.agent.current;
  return {
    id: e.id,
    tab: e.placement.tab.id,
    argv: e.command,
    cwd: o.cwd(e),
    env: additions(e.launch.env, o.serverEnv),
    title: e.pane.title,
    agent: status.agent ?? null,
    state: status.state,
    started: e.launch.at,
    session: o.sessions.get(e) ?? null,
    history: o.history(e),
  };
}

/** Where the pane's foreground process is now. */
function foregroundCwd(e: PaneEntry): string {
  return e.pane.currentCwd();
}

/** The variables of `env` that `base` lacks or has otherwise, less fux's own (set again on restore). */
function additions(
  env: Readonly<Record<string, string>>,
  base: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (base[k] !== v && !k.startsWith('FUX_')) out[k] = v;
  return out;
}

/**
 * The pane's last `lines` lines (history and screen), as `capture -e` renders them: plain text,
 * SGR only on lines that have style; blank lines at the bottom dropped. At most 128 KiB, the
 * capture's own cap, which bounds the journal per pane.
 */
export function historyText(e: PaneEntry, lines: number): string {
  if (lines === 0) return '';
  return lastLines(e.pane.capture({ attrs: true, scrollback: lines }).text, lines);
}

/**
 * The last `lines` lines of `text` once the blank lines at its end are dropped. Found by looking
 * for newlines from the end, not by splitting: the writer does this for every printing pane every
 * few seconds, and the lines of a split were as much garbage again as the capture itself.
 */
export function lastLines(text: string, lines: number): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === NEWLINE) end--;
  let start = end;
  for (let n = 0; n < lines; n++) {
    const newline = start > 0 ? text.lastIndexOf('\n', start - 1) : -1;
    if (newline < 0) return text.slice(0, end);
    start = newline;
  }
  return text.slice(start + 1, end);
}

const NEWLINE = 0x0a;
