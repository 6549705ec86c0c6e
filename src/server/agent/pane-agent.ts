/**
 * The agent detector of one pane: zor's Detector on the pane's own terminal (no second emulator)
 * and its pty's foreground group, plus the pane's own OSC 7877 reports. It publishes the pane's
 * AgentStatus whenever it changes.
 *
 * Evaluation is driven by the screen, not by a tick: once an agent is identified, a step runs
 * right after output is parsed (at most one per STEP_SPACING_MS while output streams), and at the
 * detector's deadlines (the idle hold, the end of the startup grace, identification while the pane
 * is active). A pane with no output has no timer.
 */
import type { IDisposable } from '@xterm/headless';
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_MACHINE_CONFIG,
  Detector,
  parseStateOsc,
  readPrompt,
  STATE_OSC_NUMBER,
  timeoutFor,
  XtermScreenView,
  type MachineConfig,
  type ProcessTable,
  type PromptReading,
  type RuleSet,
} from '../../zor';
import type { Pane } from '../pane';
import { NO_AGENT, sameStatus, type AgentChange, type AgentStatus } from './agent-status';
import { QUIET_AFTER_MS, QuietProbe } from './quiet-probe';
import { SelfReport } from './self-report';

/**
 * During a flood, one evaluation per this many ms is plenty (rules read a screenful of text), and
 * the first output after a quiet spell is still evaluated within two milliseconds, so a prompt is
 * seen as drawn.
 */
const STEP_SPACING_MS = 10;

/**
 * zor's constants, without the heartbeat: the server announces changes, and a late joiner reads
 * the current state from `list`, so a periodic repeat would only cost every pane a timer.
 */
const SERVER_MACHINE_CONFIG: MachineConfig = {
  ...DEFAULT_MACHINE_CONFIG,
  heartbeatMs: Number.POSITIVE_INFINITY,
};

export interface PaneAgentOptions {
  readonly pane: Pane;
  readonly sets: readonly RuleSet[];
  /** The platform's process table; without one, only the pane's own reports say anything. */
  readonly table: ProcessTable | undefined;
  readonly onChange: (change: AgentChange) => void;
  /** How long after its last output the pane is still probed (default: the probe's acquisition window). */
  readonly quietAfterMs?: number;
}

export class PaneAgent {
  private readonly screen: XtermScreenView;
  private readonly detector: Detector;
  private readonly reports = new SelfReport();
  private readonly oscHandler: IDisposable;
  private status: AgentStatus = NO_AGENT;
  private statusSince = Date.now();
  private lastOutput: number;
  private lastStep = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private immediate: NodeJS.Immediate | undefined;
  private disposed = false;
  private readonly onOutput = (): void => {
    const now = performance.now();
    this.lastOutput = now;
    // With no agent identified there are no rules to run, only identification, whose next probe
    // (at most 500 ms away) also takes note of the screen having changed. Reading the screen per
    // output would only cost a flooding shell (measured: 0.2-0.4 ms a read at 200x50).
    // Not in this turn even when due: the output may be a keystroke's echo, whose frame or event
    // was just written, and the process it woke runs on this vCPU once the turn ends (wake-ups
    // here keep the woken process on the waker's CPU); a rule evaluation now would come first.
    const at =
      this.detector.ruleSet === undefined
        ? this.detector.nextDeadline()
        : Math.max(now + 1, this.lastStep + STEP_SPACING_MS);
    this.scheduleAt(at);
  };

  constructor(private readonly options: PaneAgentOptions) {
    const { pane, sets, table } = options;
    const now = performance.now();
    // A pane that just started is about to draw (or exec an agent): it counts as active.
    this.lastOutput = now;
    this.screen = new XtermScreenView(pane.terminal);
    const probe =
      table === undefined
        ? undefined
        : new QuietProbe({ table, sets, child: pane.pid, now }, () => this.active(performance.now()));
    this.detector = new Detector({
      screen: this.screen,
      sets,
      now,
      probe,
      machineConfig: SERVER_MACHINE_CONFIG,
    });
    this.oscHandler = pane.terminal.parser.registerOscHandler(STATE_OSC_NUMBER, (data) => {
      this.reported(data);
      return true;
    });
    pane.on('output', this.onOutput);
    this.scheduleAt(now);
  }

  /** The published status. */
  get current(): AgentStatus {
    return this.status;
  }

  /** Whether a step is pending; false for a pane that has been quiet for a while, which then costs nothing. */
  get scheduled(): boolean {
    return this.immediate !== undefined || this.timer !== undefined;
  }

  /** When the published status last changed (ms since the epoch; the pane's start before any change). */
  get since(): number {
    return this.statusSince;
  }

  /**
   * The prompt on the screen now, read with the identified agent's rule set (`fux answer`);
   * undefined when no rule set is in use (no agent, or one known only by its own reports).
   */
  readPrompt(): PromptReading | undefined {
    const set = this.detector.ruleSet;
    return set === undefined ? undefined : readPrompt(set, this.screen);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelTimers();
    this.options.pane.off('output', this.onOutput);
    this.oscHandler.dispose();
    this.screen.dispose();
  }

  private active(now: number): boolean {
    return now - this.lastOutput < (this.options.quietAfterMs ?? QUIET_AFTER_MS);
  }

  private scheduleAt(at: number): void {
    if (this.disposed) return;
    const now = performance.now();
    if (at <= now) {
      this.immediate ??= setImmediate(() => this.step());
      return;
    }
    if (this.immediate !== undefined || (this.timer !== undefined && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.step(), timeoutFor(at, now));
    this.timer.unref();
  }

  private cancelTimers(): void {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    clearTimeout(this.timer);
    this.immediate = undefined;
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private step(): void {
    this.cancelTimers();
    if (this.disposed) return;
    const now = performance.now();
    this.lastStep = now;
    // Only the published state matters here; heartbeats are off and verdicts are for --debug.
    this.detector.step(now);
    this.publish();
    const deadline = this.detector.nextDeadline();
    // A deadline already due (none should be) still waits a millisecond rather than spinning.
    if (Number.isFinite(deadline)) this.scheduleAt(Math.max(deadline, now + 1));
  }

  private reported(data: string): void {
    const report = parseStateOsc(data);
    if (report === undefined || this.disposed) return;
    if (this.reports.accept(report, this.foregroundJob())) this.publish();
  }

  private foregroundJob(): number | undefined {
    return this.options.table?.foregroundPgid(this.options.pane.pid);
  }

  /** The pane's own fresh report wins; otherwise what zor's rules and machine published. */
  private publish(): void {
    const published = this.detector.published;
    const next = this.reports.inForce(() => this.foregroundJob()) ?? {
      agent: published.state === 'none' ? undefined : published.agent,
      state: published.state,
      visible: published.visible,
    };
    if (sameStatus(next, this.status)) return;
    const question = next.state === 'blocked' ? this.detector.blockerQuestion() : undefined;
    const change: AgentChange = { previous: this.status, current: next, at: Date.now(), question };
    this.status = next;
    this.statusSince = change.at;
    this.options.onChange(change);
  }
}
