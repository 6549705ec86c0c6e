/**
 * Which conversation an agent pane is in, found the way the agent itself records it, so a restart
 * can resume it with the agent's own resume command:
 *
 * - Claude Code keeps one transcript per session at
 *   `$CLAUDE_CONFIG_DIR (else ~/.claude)/projects/<cwd, every other character than [A-Za-z0-9] a
 *   '-'>/<session id>.jsonl`, whose entries carry the `cwd` (seen in 2.1.197);
 * - Codex keeps `$CODEX_HOME (else ~/.codex)/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`,
 *   whose first line (`session_meta`) carries the `cwd` (seen in 0.171).
 *
 * A pane's session is the transcript of its cwd written to most recently since the pane started;
 * when several panes run the same agent in one directory, the one started last takes the newest
 * transcript, and so on, so no two panes claim one session.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentSession } from './schema';

export type AgentKind = AgentSession['agent'];

/** The agent a pane runs by its program's name (`claude`, `/usr/bin/codex`), if it is one we can resume. */
export function agentOfArgv(argv: readonly string[]): AgentKind | undefined {
  const name = path.basename(argv[0] ?? '').replace(/\.(exe|js)$/, '');
  return name === 'claude' || name === 'codex' ? name : undefined;
}

export interface SessionProbe {
  agent: AgentKind;
  cwd: string;
  /** The pane's environment: where HOME, CLAUDE_CONFIG_DIR and CODEX_HOME point. */
  env: Readonly<Record<string, string | undefined>>;
  /** When the pane's program started (ms since the epoch). */
  since: number;
}

/** A transcript may be created a moment before the pane's start is stamped. */
const START_SLACK_MS = 2000;
/** How much of a transcript is read to check its cwd (Codex's first line carries its instructions). */
const HEAD_BYTES = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Transcript {
  id: string;
  file: string;
  mtimeMs: number;
}

/** Each probe's session, in the probes' order (undefined: none found). */
export function findSessions(
  probes: readonly SessionProbe[],
  now: number = Date.now(),
): Array<string | undefined> {
  const found: Array<string | undefined> = probes.map(() => undefined);
  const claimed = new Set<string>();
  const order = probes.map((p, i) => ({ p, i })).sort((a, b) => b.p.since - a.p.since);
  for (const { p, i } of order) {
    const candidates = transcripts(p, now)
      .filter((t) => t.mtimeMs >= p.since - START_SLACK_MS && !claimed.has(t.file))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    const match = candidates.find((t) => headHas(t.file, `"cwd":${JSON.stringify(p.cwd)}`));
    if (!match) continue;
    claimed.add(match.file);
    found[i] = match.id;
  }
  return found;
}

function homeOf(env: SessionProbe['env']): string {
  return env.HOME || os.homedir();
}

function transcripts(p: SessionProbe, now: number): Transcript[] {
  if (p.agent === 'claude') {
    const base = p.env.CLAUDE_CONFIG_DIR || path.join(homeOf(p.env), '.claude');
    const dir = path.join(base, 'projects', p.cwd.replace(/[^A-Za-z0-9]/g, '-'));
    return filesIn(dir, /^([0-9a-f-]{36})\.jsonl$/);
  }
  const base = path.join(p.env.CODEX_HOME || path.join(homeOf(p.env), '.codex'), 'sessions');
  const out: Transcript[] = [];
  // Day directories from the day before the start (time zones) to today, a week at most.
  const first = Math.max(p.since - DAY_MS, now - 7 * DAY_MS);
  for (let t = first; t <= now + DAY_MS; t += DAY_MS) {
    const d = new Date(t);
    const day = [String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())];
    out.push(...filesIn(path.join(base, ...day), /^rollout-.*-([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/));
  }
  return out;
}

const pad = (n: number): string => String(n).padStart(2, '0');

function filesIn(dir: string, name: RegExp): Transcript[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: Transcript[] = [];
  for (const n of names) {
    const m = name.exec(n);
    if (!m) continue;
    const file = path.join(dir, n);
    try {
      out.push({ id: m[1]!, file, mtimeMs: fs.statSync(file).mtimeMs });
    } catch {
      // gone since the listing
    }
  }
  return out;
}

function headHas(file: string, needle: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n).toString('utf8').includes(needle);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The command that resumes `session` with the pane's original flags: `claude … --resume <id>`,
 * `codex resume <id> …`. Whatever chose a session before (`--resume`, `--continue`, a `resume`
 * subcommand) and a first prompt given on the command line (it was sent already) are left out.
 */
export function resumeArgv(argv: readonly string[], session: AgentSession): string[] {
  const [bin, ...args] = argv;
  if (session.agent === 'claude') {
    return [bin!, ...withoutPrompt(dropOptions(args, CLAUDE_SESSION_OPTIONS)), '--resume', session.id];
  }
  const rest = args[0] === 'resume' ? args.slice(args[1] && !args[1].startsWith('-') ? 2 : 1) : args;
  return [bin!, 'resume', session.id, ...withoutPrompt(rest)];
}

/** Claude Code's options that pick a session: each with whether it takes a value. */
const CLAUDE_SESSION_OPTIONS = new Map([
  ['--resume', true],
  ['-r', true],
  ['--session-id', true],
  ['--continue', false],
  ['-c', false],
  ['--fork-session', false],
]);

function dropOptions(args: readonly string[], options: ReadonlyMap<string, boolean>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.split('=')[0]!;
    const takesValue = options.get(name);
    if (takesValue === undefined) {
      out.push(a);
      continue;
    }
    if (takesValue && !a.includes('=') && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) i++;
  }
  return out;
}

/** The args less a trailing positional prompt: a last word that no option before it takes as its value. */
function withoutPrompt(args: readonly string[]): string[] {
  const last = args.at(-1);
  if (last === undefined || last.startsWith('-')) return [...args];
  const before = args.at(-2);
  const isOptionValue = before !== undefined && before.startsWith('-') && !before.includes('=');
  return isOptionValue ? [...args] : args.slice(0, -1);
}
