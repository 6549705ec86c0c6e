/**
 * How long to wait before restarting a hook that exited: 1 s, doubling per quick exit up to a
 * minute, and back to 1 s once a run lasted long enough to count as healthy. A hook that crashes
 * at once costs a process a minute, not a busy loop; one that ran for hours restarts promptly.
 */
export interface BackoffConfig {
  readonly firstMs: number;
  readonly maxMs: number;
  /** A run at least this long resets the delay to `firstMs`. */
  readonly healthyAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffConfig = { firstMs: 1000, maxMs: 60_000, healthyAfterMs: 10_000 };

export class Backoff {
  private quickExits = 0;

  constructor(private readonly config: BackoffConfig = DEFAULT_BACKOFF) {}

  /** The delay before the next start, after a run that lasted `ranMs`. */
  next(ranMs: number): number {
    if (ranMs >= this.config.healthyAfterMs) this.quickExits = 0;
    const delay = Math.min(this.config.firstMs * 2 ** this.quickExits, this.config.maxMs);
    this.quickExits++;
    return delay;
  }
}
