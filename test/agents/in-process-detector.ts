import { identify } from '../../src/zor/ident/identify';
import { platformProcessTable } from '../../src/zor/ident/platform-process-table';
import type { ProcessTable } from '../../src/zor/ident/process-table';
import { evaluate } from '../../src/zor/rules/evaluate';
import { findSet, type RuleSet } from '../../src/zor/rules/rule-set';
import { XtermScreenView } from '../../src/zor/screen/xterm-screen-view';
import { StateMachine, type StateChange } from '../../src/zor/state/state-machine';
import type { PtySession } from './pty-session';

/**
 * zor's detection run in the test process over a PtySession: the agent identified from the pty's
 * foreground job in the real process table, then the real screen view, rules and state machine
 * on the wall clock, re-evaluated every RECHECK_MS (the machine's own recheck interval). What the
 * wrapper does around a pty, minus the wrapper and its probe cadences; the live tests use it until
 * `zor --events` can be run instead.
 */

const RECHECK_MS = 100;

export class InProcessDetector {
  /** Every published change, in order. */
  readonly changes: StateChange[] = [];
  private readonly view: XtermScreenView;
  private readonly machine: StateMachine;
  private readonly processes: ProcessTable;
  private readonly timer: NodeJS.Timeout;
  private set: RuleSet | undefined;

  constructor(
    private readonly session: PtySession,
    private readonly sets: readonly RuleSet[],
  ) {
    const processes = platformProcessTable();
    if (processes === undefined) throw new Error(`no process table for ${process.platform}`);
    this.processes = processes;
    this.view = new XtermScreenView(session.terminal);
    this.machine = new StateMachine(Date.now());
    this.timer = setInterval(() => this.step(), RECHECK_MS);
  }

  /** Waits until the published state is `state`, reporting every change so far on timeout. */
  waitForState(state: string, timeoutMs: number): Promise<void> {
    return this.session.waitFor(() => this.machine.state === state, {
      timeoutMs,
      what: `zor to publish ${state} (published so far: ${this.describe()})`,
    });
  }

  /**
   * The published states in order, a change of flags alone (idle without, then with, the prompt
   * drawn) not repeating the state: "idle → working → blocked → idle".
   */
  describe(): string {
    const states = this.changes.map((change) => change.state).filter((state, i, all) => state !== all[i - 1]);
    return states.join(' → ') || 'nothing';
  }

  stop(): void {
    clearInterval(this.timer);
    this.view.dispose();
  }

  private step(): void {
    const now = Date.now();
    if (this.set === undefined) this.probe(now);
    const verdict = this.set === undefined ? undefined : evaluate(this.set, this.view);
    this.record(this.machine.observe(verdict, now));
    this.record(this.machine.tick(now));
  }

  private probe(now: number): void {
    const pgid = this.processes.foregroundPgid(this.session.pid);
    if (pgid === undefined) return;
    const found = identify(this.processes.job(this.session.pid, pgid), this.sets);
    if (found === undefined) return;
    this.set = findSet(this.sets, found.agent);
    this.record(this.machine.agentFound(found.agent, found.pid, now));
  }

  private record(events: ReturnType<StateMachine['tick']>): void {
    for (const event of events) if (event.kind === 'changed') this.changes.push(event);
  }
}
