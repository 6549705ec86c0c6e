/**
 * The out-of-band event lines: one JSON object per line, for notifiers, status bars and test
 * harnesses. `previous` and `title` are there so a notifier can say "needs attention" and
 * "finished" without keeping state. A heartbeat is a `state` line with the seq of the change it
 * repeats (and no `previous`), so a consumer tells a change (new seq) from a repeat.
 */
import { flagNames, type AgentState, type VisibleFlags } from '../agent-state';

/** Seconds since the epoch with millisecond precision, as in the design's examples. */
function timestamp(epochMs: number): number {
  return Math.round(epochMs) / 1000;
}

export interface StateLineInput {
  readonly state: AgentState;
  /** Absent on a heartbeat. */
  readonly previous?: AgentState | undefined;
  readonly agent: string | undefined;
  readonly seq: number;
  readonly visible: VisibleFlags;
  readonly exited: boolean;
  /** The child's own title, unprefixed. */
  readonly title: string;
}

export function stateLine(input: StateLineInput, epochMs: number): string {
  const flags = flagNames(input.visible);
  return JSON.stringify({
    t: 'state',
    state: input.state,
    ...(input.previous === undefined ? {} : { previous: input.previous }),
    agent: input.agent ?? null,
    seq: input.seq,
    ...(flags.length > 0 ? { visible: flags } : {}),
    ...(input.exited ? { exited: true } : {}),
    title: input.title,
    ts: timestamp(epochMs),
  });
}

export function agentLine(
  agent: { readonly agent: string; readonly pid: number } | undefined,
  epochMs: number,
): string {
  return JSON.stringify(
    agent === undefined
      ? { t: 'agent', agent: null, ts: timestamp(epochMs) }
      : { t: 'agent', agent: agent.agent, pid: agent.pid, ts: timestamp(epochMs) },
  );
}

/** The child's exit: a code, or a signal name with `code: null` when it was killed. */
export function exitLine(
  exit: { readonly code: number | null; readonly signal?: string | undefined },
  epochMs: number,
): string {
  return JSON.stringify({
    t: 'exit',
    code: exit.code,
    ...(exit.signal === undefined ? {} : { signal: exit.signal }),
    ts: timestamp(epochMs),
  });
}
