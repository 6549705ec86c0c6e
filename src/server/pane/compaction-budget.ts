/**
 * How much time moving history into the archive may take while output keeps coming: a share of
 * the time that passes, saved up to a burst. Archiving spends what it measurably took and may
 * overdraw, after which it waits until time has paid the debt back. Both sides are wall time, so
 * a loaded machine slows them alike; while output floods, the time that passes is parsing it.
 *
 * A plain row costs a fraction of parsing it to archive, so a flood of plain text is archived as it
 * comes; a row styled across the width is rendered cell by cell, which costs more than parsing it,
 * and a flood of such rows outruns the budget and fills the terminal.
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
