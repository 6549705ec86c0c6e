/**
 * How much time moving history into the archive may take while output keeps coming: a share of
 * the time that passes, saved up to a burst. Archiving spends what it measurably took and may
 * overdraw, after which it waits until time has paid the debt back. Both sides are wall time, so
 * a loaded machine slows them alike; while output floods, the time that passes is parsing it.
 *
 * Archiving a row reads every cell of it, whatever the row holds, so a row of a long line costs a
 * fraction of parsing it, and a row of a short one about as much: a flood of long lines is
 * archived as it comes, while a flood of short lines outruns the budget and fills the terminal.
 */
export class CompactionBudget {
  private balanceMs: number;

  constructor(
    /** The share of the time that archiving may take. */
    private readonly share: number,
    private readonly burstMs: number,
  ) {
    this.balanceMs = burstMs;
  }

  get available(): boolean {
    return this.balanceMs > 0;
  }

  /** `ms` have passed. */
  earn(ms: number): void {
    this.balanceMs = Math.min(this.burstMs, this.balanceMs + ms * this.share);
  }

  /** Archiving took `ms`. */
  spend(ms: number): void {
    this.balanceMs -= ms;
  }
}
