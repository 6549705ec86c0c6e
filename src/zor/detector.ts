/**
 * One pane's detector: the screen view, identification, rule evaluation and the state machine
 * wired together. It owns no terminal, no timer and no process: the caller (the wrapper, or the
 * fux server for each pane) feeds the terminal, calls `step` after output is parsed and at
 * `nextDeadline`, and publishes the events. Time is injected, so a test can drive it exactly.
 */
import { evaluate, type Verdict } from './rules/evaluate';
import { RegionReader } from './rules/region-text';
import { findSet, type RuleSet } from './rules/rule-set';
import type { ScreenView } from './screen/screen-view';
import type { AgentProbe, ProbeEvent } from './ident/agent-probe';
import {
  DEFAULT_MACHINE_CONFIG,
  StateMachine,
  type MachineConfig,
  type MachineEvent,
} from './state/state-machine';

/** A screen whose title and progress can be forgotten when the agent that reported them goes. */
export interface DetectorScreen extends ScreenView {
  clearEvidence(): void;
}

export interface DetectorOptions {
  readonly screen: DetectorScreen;
  readonly sets: readonly RuleSet[];
  readonly now: number;
  /** Identification by process tree; leave it out when the agent is forced. */
  readonly probe?: AgentProbe | undefined;
  /** `--agent ID`: skip identification and use this set for the spawned process from the start. */
  readonly forcedAgent?: { readonly agent: string; readonly pid: number } | undefined;
  readonly machineConfig?: MachineConfig | undefined;
}

/** The longest question `blockerQuestion` returns, in characters. */
export const QUESTION_MAX = 200;

/** A raw verdict that differs from the previous one (for `--debug`), beside the machine's events. */
export interface VerdictEvent {
  readonly kind: 'verdict';
  readonly agent: string;
  readonly verdict: Verdict;
}

export type DetectorEvent = MachineEvent | VerdictEvent;

/** A line of a region without the box it may be drawn in (`│ Allow execution? │`) or its padding. */
function unboxed(line: string): string {
  return line.replace(/^[\s│┃║╭╮╰╯─]+|[\s│┃║╭╮╰╯─]+$/gu, '');
}

function sameVerdict(a: Verdict | undefined, b: Verdict): boolean {
  return a !== undefined && a.state === b.state && a.rule === b.rule;
}

export class Detector {
  private readonly machine: StateMachine;
  private readonly probe: AgentProbe | undefined;
  private pendingForced: { readonly agent: string; readonly pid: number } | undefined;
  private screenChangedSinceProbe = false;
  private evaluateNext = false;
  private verdict: Verdict | undefined;

  constructor(private readonly options: DetectorOptions) {
    this.machine = new StateMachine(options.now, options.machineConfig ?? DEFAULT_MACHINE_CONFIG);
    this.probe = options.forcedAgent === undefined ? options.probe : undefined;
    this.pendingForced = options.forcedAgent;
  }

  /** The published state and what it is about, for dumps and late joiners. */
  get published() {
    return {
      state: this.machine.state,
      agent: this.machine.agent,
      seq: this.machine.seq,
      visible: this.machine.visible,
    };
  }

  /** The raw verdict for the screen as it is now (for fixture dumps); `undefined` without an agent. */
  verdictNow(): Verdict | undefined {
    const set = this.ruleSet;
    return this.machine.watching && set !== undefined ? evaluate(set, this.options.screen) : undefined;
  }

  /**
   * The question of a visible blocker: the first line ending in `?` of the region the winning
   * blocker rule read, else its first non-blank line, while the last verdict is one (at most QUESTION_MAX characters: it goes into
   * events and notifications); `undefined` otherwise.
   */
  blockerQuestion(): string | undefined {
    const set = this.ruleSet;
    const verdict = this.verdict;
    if (set === undefined || verdict?.region === undefined || !verdict.visible.blocker) return undefined;
    const { lines } = new RegionReader(this.options.screen, set).read(verdict.region);
    const text = lines.map(unboxed).filter((line) => line.length > 0);
    // A prompt often heads its question with a label ("Bash command", the command itself): the
    // line that asks ("Do you want to proceed?") says more in a notification, when there is one.
    const question = text.find((line) => line.endsWith('?')) ?? text[0];
    return question !== undefined && question.length > QUESTION_MAX
      ? `${question.slice(0, QUESTION_MAX - 1)}…`
      : question;
  }

  /** The rule set in use, when an agent is identified. */
  get ruleSet(): RuleSet | undefined {
    const agent = this.machine.agent;
    return agent === undefined ? undefined : findSet(this.options.sets, agent);
  }

  step(now: number): DetectorEvent[] {
    const events: DetectorEvent[] = [];
    const changed = this.options.screen.takeChanged();
    this.screenChangedSinceProbe ||= changed;
    if (this.pendingForced !== undefined) {
      events.push(...this.machine.agentFound(this.pendingForced.agent, this.pendingForced.pid, now));
      this.pendingForced = undefined;
      this.evaluateNext = true;
    }
    if (this.probe !== undefined && now >= this.probe.nextTickAt(this.machine.holdPending)) {
      const probeEvents = this.probe.tick(now, {
        screenChanged: this.screenChangedSinceProbe,
        holdPending: this.machine.holdPending,
      });
      this.screenChangedSinceProbe = false;
      for (const event of probeEvents) events.push(...this.applyProbeEvent(event, now));
    }
    const set = this.ruleSet;
    if (this.machine.watching && set !== undefined) {
      // Idle scan skip: an idle pane with no hold and an unchanged screen is not re-read.
      const due = changed || this.evaluateNext || this.machine.holdPending || this.machine.state !== 'idle';
      if (due) {
        this.evaluateNext = false;
        const verdict = evaluate(set, this.options.screen);
        if (!sameVerdict(this.verdict, verdict)) events.push({ kind: 'verdict', agent: set.id, verdict });
        this.verdict = verdict;
        events.push(...this.machine.observe(verdict, now));
      }
    } else {
      this.machine.observe(undefined, now);
    }
    events.push(...this.machine.tick(now));
    return events;
  }

  /** When `step` must run next even if the screen stays quiet. */
  nextDeadline(): number {
    let deadline = this.machine.nextDeadline();
    if (this.probe !== undefined)
      deadline = Math.min(deadline, this.probe.nextTickAt(this.machine.holdPending));
    return deadline;
  }

  private applyProbeEvent(event: ProbeEvent, now: number): MachineEvent[] {
    switch (event.kind) {
      case 'found':
        // A replacement (another agent, or a relaunch) must not inherit the previous agent's
        // title and progress; a first identification keeps what the new agent already reported.
        if (this.machine.agent !== undefined) this.options.screen.clearEvidence();
        this.evaluateNext = true;
        this.verdict = undefined;
        return this.machine.agentFound(event.agent, event.pid, now);
      case 'exited':
        this.options.screen.clearEvidence();
        return this.machine.agentGone(now);
      case 'lost':
        this.options.screen.clearEvidence();
        return this.machine.agentLost(now);
    }
  }
}
