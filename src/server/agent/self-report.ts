/**
 * OSC 7877 written by a pane's own program: an agent that reports itself, or `zor` run inside the
 * pane. Reports apply in arrival order; one repeating the last report's seq and content is a
 * duplicate (a redraw, a re-sent line) and changes nothing.
 *
 * A report is in force while the foreground job that was in front when it arrived is still in
 * front. Reports carry no end marker, and a program that reported and then exited (or was killed)
 * must not leave its last word standing; when the job changes, the rules speak for the pane again.
 */
import { sameFlags, type StateReport } from '../../zor';
import type { AgentStatus } from './agent-status';

interface HeldReport {
  readonly status: AgentStatus;
  readonly seq: number;
  /** The pty's foreground process group when the report arrived; `undefined` when it cannot be read. */
  readonly job: number | undefined;
}

export class SelfReport {
  private held: HeldReport | undefined;

  /** Takes a report; false when it duplicates the one held. */
  accept(report: StateReport, job: number | undefined): boolean {
    const status: AgentStatus = {
      agent: report.state === 'none' ? undefined : report.agent,
      state: report.state,
      visible: report.visible,
    };
    const held = this.held;
    if (
      held !== undefined &&
      held.seq === report.seq &&
      held.job === job &&
      held.status.state === status.state &&
      held.status.agent === status.agent &&
      sameFlags(held.status.visible, status.visible)
    ) {
      return false;
    }
    this.held = { status, seq: report.seq, job };
    return true;
  }

  /**
   * The report in force, given a way to read the current foreground job (read only while a report
   * is held, so a pane that never reports costs nothing here). A stale report is dropped.
   */
  inForce(currentJob: () => number | undefined): AgentStatus | undefined {
    if (this.held === undefined) return undefined;
    if (currentJob() !== this.held.job) this.held = undefined;
    return this.held?.status;
  }
}
