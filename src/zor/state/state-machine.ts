/**
 * The hysteresis machine between raw verdicts and what zor publishes. Pure: time comes in as a
 * number of milliseconds from an injected clock, events go out as values, nothing is scheduled.
 *
 * Raw verdicts are noisy (a spinner frame changes a row, a prompt redraw briefly looks idle), so
 * working → plain idle is held until it is confirmed; everything else publishes at once, because
 * waiting on a blocked prompt costs the user time and a false working costs nothing.
 */
import { NO_FLAGS, sameFlags, type AgentState, type VisibleFlags } from '../agent-state';
import type { Verdict } from '../rules/evaluate';

/** herdr's numbers, tuned over months against real agents; zor takes them as they are. */
export interface MachineConfig {
  /** How often a pending idle is re-checked; also the minimum spacing of two confirmations. */
  readonly recheckMs: number;
  /** Confirmations after the first idle verdict before a held idle publishes (four verdicts in a row). */
  readonly confirmations: number;
  /** A hold still open this long after it started publishes anyway: the cap forces, never cancels. */
  readonly holdCapMs: number;
  /** A stable state is repeated on the event channel this often, with the same seq. */
  readonly heartbeatMs: number;
  /** After an agent is found, idle verdicts are ignored this long: agents draw their prompt first. */
  readonly startupGraceMs: number;
}

export const DEFAULT_MACHINE_CONFIG: MachineConfig = {
  recheckMs: 100,
  confirmations: 3,
  holdCapMs: 700,
  heartbeatMs: 800,
  startupGraceMs: 3000,
};

export interface StateChange {
  readonly kind: 'changed';
  readonly state: AgentState;
  readonly previous: AgentState;
  readonly agent: string | undefined;
  readonly seq: number;
  readonly visible: VisibleFlags;
  /** Set with state `exited` (kept so OSC 7877 consumers that read `exited=1` still see it). */
  readonly exited: boolean;
}

export interface Heartbeat {
  readonly kind: 'heartbeat';
  readonly state: AgentState;
  readonly agent: string | undefined;
  /** The seq of the change being repeated; a consumer tells a change from a heartbeat by it. */
  readonly seq: number;
  readonly visible: VisibleFlags;
  readonly exited: boolean;
  /** `blocker` while a visible blocker persists (a notifier may nag); `heartbeat` otherwise. */
  readonly reason: 'heartbeat' | 'blocker';
}

export interface AgentFound {
  readonly kind: 'agent-found';
  readonly agent: string;
  readonly pid: number;
}

export interface AgentLost {
  readonly kind: 'agent-lost';
  readonly agent: string;
}

export type MachineEvent = StateChange | Heartbeat | AgentFound | AgentLost;

interface Hold {
  readonly since: number;
  lastConfirmation: number;
  confirmations: number;
  visible: VisibleFlags;
}

export class StateMachine {
  private published: AgentState = 'none';
  private publishedFlags: VisibleFlags = NO_FLAGS;
  private publishedExited = false;
  private currentAgent: string | undefined;
  private agentExited = false;
  private sequence = 0;
  private hold: Hold | undefined;
  private graceUntil = Number.NEGATIVE_INFINITY;
  /** The end of the grace is still ahead: it is a deadline, since held-back idle may then count. */
  private graceEndPending = false;
  private lastAnnounce: number;

  constructor(
    now: number,
    private readonly config: MachineConfig = DEFAULT_MACHINE_CONFIG,
  ) {
    this.lastAnnounce = now;
  }

  get state(): AgentState {
    return this.published;
  }

  get visible(): VisibleFlags {
    return this.publishedFlags;
  }

  get agent(): string | undefined {
    return this.currentAgent;
  }

  get seq(): number {
    return this.sequence;
  }

  /** Whether a working → idle hold is open (the caller re-evaluates every `recheckMs` while it is). */
  get holdPending(): boolean {
    return this.hold !== undefined;
  }

  /** Whether rules should be evaluated at all: an agent is identified and has not exited. */
  get watching(): boolean {
    return this.currentAgent !== undefined && !this.agentExited;
  }

  inGrace(now: number): boolean {
    return now < this.graceUntil;
  }

  /**
   * The agent was first identified, or replaced (a different agent, or the same one relaunched
   * under a new pid): the startup grace restarts. A different agent id republishes the current
   * state under its name so consumers never see one agent's state labelled with another's id.
   */
  agentFound(agent: string, pid: number, now: number): MachineEvent[] {
    const events: MachineEvent[] = [{ kind: 'agent-found', agent, pid }];
    const renamed = this.currentAgent !== agent;
    this.currentAgent = agent;
    this.agentExited = false;
    this.hold = undefined;
    this.graceUntil = now + this.config.startupGraceMs;
    this.graceEndPending = true;
    if (renamed && this.published !== 'none') {
      events.push(this.publish(this.published, this.publishedFlags, false, now));
    }
    return events;
  }

  /** The shell is back in the foreground: publish `exited` at once (its own state, never idle: the turn did not finish, the agent ended). */
  agentGone(now: number): MachineEvent[] {
    if (this.currentAgent === undefined || this.agentExited) return [];
    this.agentExited = true;
    this.hold = undefined;
    return [this.publish('exited', NO_FLAGS, true, now)];
  }

  /** Identification no longer sees the agent (after an exit, or six misses): publish none. */
  agentLost(now: number): MachineEvent[] {
    const agent = this.currentAgent;
    if (agent === undefined) return [];
    this.hold = undefined;
    const events: MachineEvent[] = [];
    if (this.published !== 'none') events.push(this.publish('none', NO_FLAGS, false, now));
    this.currentAgent = undefined;
    this.agentExited = false;
    events.push({ kind: 'agent-lost', agent });
    return events;
  }

  /** One raw verdict; `undefined` when no verdict could be made (no agent identified). */
  observe(verdict: Verdict | undefined, now: number): MachineEvent[] {
    this.noteTime(now);
    if (verdict === undefined || verdict.state === 'skip' || !this.watching) {
      // Skip vetoes the update and an unidentified pane has nothing to say; either way the hold
      // is not confirmed by this tick.
      this.hold = undefined;
      return [];
    }
    const target = verdict.state;
    const flags = verdict.visible;
    // herdr drops every verdict in the grace window; zor drops idle only, since a permission
    // prompt in an agent's first three seconds is real.
    if (target === 'idle' && this.inGrace(now)) return [];
    if (target === this.published && sameFlags(flags, this.publishedFlags) && !this.publishedExited) {
      this.hold = undefined;
      return [];
    }
    if (this.published === 'working' && target === 'idle' && !flags.idle) return this.holdIdle(flags, now);
    this.hold = undefined;
    return [this.publish(target, flags, false, now)];
  }

  /** Time passing: the hold cap and the heartbeat. */
  tick(now: number): MachineEvent[] {
    const events: MachineEvent[] = [];
    this.noteTime(now);
    if (this.hold !== undefined && now - this.hold.since >= this.config.holdCapMs) {
      const flags = this.hold.visible;
      this.hold = undefined;
      events.push(this.publish('idle', flags, false, now));
    }
    if (now - this.lastAnnounce >= this.config.heartbeatMs) {
      this.lastAnnounce = now;
      events.push({
        kind: 'heartbeat',
        state: this.published,
        agent: this.currentAgent,
        seq: this.sequence,
        visible: this.publishedFlags,
        exited: this.publishedExited,
        reason: this.published === 'blocked' && this.publishedFlags.blocker ? 'blocker' : 'heartbeat',
      });
    }
    return events;
  }

  /** When `tick` (or, during a hold or at the end of the grace, a fresh verdict) is next due. */
  nextDeadline(): number {
    let deadline = this.lastAnnounce + this.config.heartbeatMs;
    if (this.hold !== undefined) {
      deadline = Math.min(
        deadline,
        this.hold.lastConfirmation + this.config.recheckMs,
        this.hold.since + this.config.holdCapMs,
      );
    }
    if (this.graceEndPending && this.watching) deadline = Math.min(deadline, this.graceUntil);
    return deadline;
  }

  private noteTime(now: number): void {
    if (this.graceEndPending && now >= this.graceUntil) this.graceEndPending = false;
  }

  private holdIdle(flags: VisibleFlags, now: number): MachineEvent[] {
    if (this.hold === undefined) {
      this.hold = { since: now, lastConfirmation: now, confirmations: 0, visible: flags };
      return [];
    }
    this.hold.visible = flags;
    // Verdicts can arrive faster than the recheck (a burst of redraws); only one per interval
    // counts, so three confirmations always mean about 300 ms of a steady idle screen.
    if (now - this.hold.lastConfirmation >= this.config.recheckMs) {
      this.hold.confirmations++;
      this.hold.lastConfirmation = now;
    }
    if (
      this.hold.confirmations >= this.config.confirmations ||
      now - this.hold.since >= this.config.holdCapMs
    ) {
      this.hold = undefined;
      return [this.publish('idle', flags, false, now)];
    }
    return [];
  }

  private publish(state: AgentState, visible: VisibleFlags, exited: boolean, now: number): StateChange {
    const previous = this.published;
    this.published = state;
    this.publishedFlags = visible;
    this.publishedExited = exited;
    this.sequence++;
    this.lastAnnounce = now;
    return {
      kind: 'changed',
      state,
      previous,
      agent: this.currentAgent,
      seq: this.sequence,
      visible,
      exited,
    };
  }
}
