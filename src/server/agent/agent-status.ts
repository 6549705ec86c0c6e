/**
 * What the server knows about the agent in a pane: which agent, its published state and the
 * `visible_*` flags. One value per pane, whether it came from zor's rules or from the pane's own
 * OSC 7877 report.
 */
import { NO_FLAGS, sameFlags, type AgentState, type VisibleFlags } from '../../zor';

export interface AgentStatus {
  /** The rule set's id (or the self-reported name); `undefined` when no agent is known. */
  readonly agent: string | undefined;
  readonly state: AgentState;
  readonly visible: VisibleFlags;
}

export const NO_AGENT: AgentStatus = { agent: undefined, state: 'none', visible: NO_FLAGS };

/** One published change of a pane's status, stamped with the wall clock. */
export interface AgentChange {
  readonly previous: AgentStatus;
  readonly current: AgentStatus;
  /** Milliseconds since the epoch. */
  readonly at: number;
  /** Blocked on a visible question: its first line (what a notification quotes). */
  readonly question: string | undefined;
}

export function sameStatus(a: AgentStatus, b: AgentStatus): boolean {
  return a.agent === b.agent && a.state === b.state && sameFlags(a.visible, b.visible);
}

/** Working or blocked, then idle: the agent finished its turn (what the notifier and attention call "finished"). */
export function isFinish(previous: AgentState, state: AgentState): boolean {
  return state === 'idle' && (previous === 'working' || previous === 'blocked');
}
