/**
 * What `wait` needs to know of the past, so that "send the prompt, then wait" holds however fast the
 * agent answers (the CLI needs a few hundred ms to start): the latest transition of each pane into
 * each state, and how each closed pane ended. A wait then counts a transition it did not see if it
 * came after the pane's last input. One per workspace; it goes with the workspace.
 */
import type { AgentState } from '../zor';
import type { PaneExit } from './pane';
import type { PaneId } from './layout';

/** A pane's arrival in a state, as `wait` reports it. */
export interface Reached {
  readonly id: PaneId;
  readonly agent: string | null;
  /** The state it came from; null when a wait counted it being there already (`now`). */
  readonly previous: AgentState | null;
  readonly state: AgentState;
  /** Milliseconds since the epoch. */
  readonly ts: number;
}

/** A closed pane: how it ended, and its program's exit as a transition into `exited`. */
export interface ClosedPane {
  readonly exit: PaneExit;
  readonly reached: Reached;
}

/**
 * Closed panes remembered per workspace: a wait for a pane that closed before the wait arrived
 * succeeds (`exited`) or says how it ended; a workspace that opens panes forever keeps the latest.
 */
const CLOSED_KEPT = 256;

export class ReachedStates {
  private readonly live = new Map<PaneId, Map<AgentState, Reached>>();
  private readonly closedPanes = new Map<PaneId, ClosedPane>();

  /** A pane's agent moved into a state. */
  moved(reached: Reached): void {
    let states = this.live.get(reached.id);
    if (!states) this.live.set(reached.id, (states = new Map()));
    states.set(reached.state, reached);
  }

  /** A pane's program ended (killed or by itself). */
  closed(id: PaneId, exit: PaneExit, last: { agent: string | null; state: AgentState }, ts: number): void {
    this.live.delete(id);
    this.closedPanes.set(id, {
      exit,
      reached: { id, agent: last.agent, previous: last.state, state: 'exited', ts },
    });
    if (this.closedPanes.size > CLOSED_KEPT) {
      const oldest = this.closedPanes.keys().next().value;
      if (oldest !== undefined) this.closedPanes.delete(oldest);
    }
  }

  /** The pane's latest transition into `state`, if it came after `after` (ms since the epoch). */
  since(id: PaneId, state: AgentState, after: number): Reached | undefined {
    const reached = this.live.get(id)?.get(state);
    return reached !== undefined && reached.ts > after ? reached : undefined;
  }

  /** How a closed pane ended, if it is one this workspace remembers. */
  closedPane(id: PaneId): ClosedPane | undefined {
    return this.closedPanes.get(id);
  }
}
