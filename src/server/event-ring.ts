/**
 * The last N sequenced events, so a subscriber that was cut off (or restarted) can resume with
 * `since` and miss nothing; one that comes back later than N events learns exactly what it lost.
 * Events enter in seq order with no hole (the bus numbers them), so the one with a given seq is
 * found by arithmetic, not by search.
 */
import type { FuxEvent } from './events';

/** Events kept by default: minutes of a busy server's state changes, a few MB at most. */
export const DEFAULT_HISTORY = 4096;

/** What a resume from `since` gets: a report of the events no longer held, then the ones that are. */
export interface Replay {
  readonly gap: { readonly from: number; readonly to: number } | undefined;
  readonly events: readonly FuxEvent[];
}

export class EventRing {
  private slots: FuxEvent[] = [];
  /** Index in `slots` of the oldest event held. */
  private start = 0;

  constructor(private capacity: number) {}

  get size(): number {
    return this.capacity;
  }

  push(e: FuxEvent): void {
    if (this.slots.length < this.capacity) {
      this.slots.push(e);
      return;
    }
    this.slots[this.start] = e;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Keep at most `capacity` events from now on (a config reload); the newest stay. */
  resize(capacity: number): void {
    if (capacity === this.capacity) return;
    const kept = this.ordered().slice(-capacity);
    this.slots = kept;
    this.start = 0;
    this.capacity = capacity;
  }

  /** The events after `since` still held, and the range before them that is not (`last` is the bus's seq). */
  after(since: number, last: number): Replay {
    const ordered = this.ordered();
    const oldest = ordered[0]?.seq ?? last + 1;
    if (since + 1 >= oldest) return { gap: undefined, events: ordered.slice(since + 1 - oldest) };
    return { gap: { from: since + 1, to: oldest - 1 }, events: ordered };
  }

  private ordered(): FuxEvent[] {
    return [...this.slots.slice(this.start), ...this.slots.slice(0, this.start)];
  }
}
