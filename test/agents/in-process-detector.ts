import { evaluate } from '../../src/zor/rules/evaluate';
import type { RuleSet } from '../../src/zor/rules/rule-set';
import { XtermScreenView } from '../../src/zor/screen/xterm-screen-view';
import { StateMachine, type StateChange } from '../../src/zor/state/state-machine';
import type { PtySession } from './pty-session';

/**
 * zor's detection run in the test process over a PtySession: the real screen view, the real
 * rules and the real state machine on the wall clock, re-evaluated every RECHECK_MS (the
 * machine's own recheck interval). What the wrapper does around a pty, minus the wrapper; the
 * live tests use it until `zor --events` can be run instead.
 */

const RECHECK_MS = 100;

export class InProcessDetector {
  /** Every published change, in order. */
  readonly changes: StateChange[] = [];
  private readonly view: XtermScreenView;
  private readonly machine: StateMachine;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly session: PtySession,
    private readonly set: RuleSet,
  ) {
    this.view = new XtermScreenView(session.terminal);
    const now = Date.now();
    this.machine = new StateMachine(now);
    this.record(this.machine.agentFound(set.id, session.pid, now));
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
    this.record(this.machine.observe(evaluate(this.set, this.view), now));
    this.record(this.machine.tick(now));
  }

  private record(events: ReturnType<StateMachine['tick']>): void {
    for (const event of events) if (event.kind === 'changed') this.changes.push(event);
  }
}
