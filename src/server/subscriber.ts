import type { FuxEvent } from './events';

/** Raised to end a subscription whose reader fell too far behind. */
export class SubscriberTooSlow extends Error {}

/** What a subscription was asked to stream: what its resume command repeats. */
export interface SubscriptionFilter {
  events?: readonly string[];
  workspace?: string;
}

/** A word the shell reads back as itself: quoted unless it is made only of characters that need none. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The command that picks a stream up after `seq` with the same filters (`-w`, the event names), so
 * a subscriber cut off can paste it and lose nothing.
 */
export function resumeCommand(seq: number, filter: SubscriptionFilter): string {
  const words = ['fux', 'subscribe', '--since', String(seq)];
  if (filter.workspace !== undefined) words.push('-w', shellWord(filter.workspace));
  words.push(...(filter.events ?? []));
  return words.join(' ');
}

/**
 * One subscriber's bounded queue. The bus pushes without waiting; the subscription drains it at the
 * pace its connection can write. When the queue is full, `pane.output` nudges are dropped first (the
 * next one supersedes them anyway); when only real events are left the subscriber is cut off, so a
 * reader that stopped can never make the server hold more than `limit` events for it.
 */
export class SubscriberQueue {
  private readonly items: FuxEvent[] = [];
  private wake: (() => void) | undefined;
  /** The signal whose abort already wakes `next`. */
  private watched: AbortSignal | undefined;
  private overflowed = false;
  private onOverflow: (() => void) | undefined;
  private readonly overflow = new Promise<void>((resolve) => (this.onOverflow = resolve));
  /** Takes an event straight to the reader while it waits on an empty queue (see `deliverDirectly`). */
  private direct: ((e: FuxEvent) => boolean) | undefined;
  dropped = 0;

  constructor(private readonly limit = 1024) {}

  /**
   * While the reader is parked in `next()` on an empty queue, hand each event to `deliver` instead
   * (in the pusher's turn, with no wake-up of the reader in between); an event it refuses (false:
   * the connection is not ready for it) is queued as usual, and so is everything after it until
   * the reader has caught up. The order is the same either way.
   */
  deliverDirectly(deliver: (e: FuxEvent) => boolean): void {
    this.direct = deliver;
  }

  push(e: FuxEvent): void {
    if (this.overflowed) return;
    if (this.wake !== undefined && this.items.length === 0 && this.direct?.(e)) return;
    if (this.items.length >= this.limit && !this.dropOneNudge()) {
      if (e.type === 'pane.output') {
        this.dropped++;
        return;
      }
      this.overflowed = true;
      this.onOverflow?.();
    } else {
      this.items.push(e);
    }
    this.wake?.();
  }

  private dropOneNudge(): boolean {
    const i = this.items.findIndex((x) => x.type === 'pane.output');
    if (i < 0) return false;
    this.items.splice(i, 1);
    this.dropped++;
    return true;
  }

  /** Resolves when the queue overflows: a writer waiting on a stuck connection races this. */
  whenOverflowed(): Promise<void> {
    return this.overflow;
  }

  get length(): number {
    return this.items.length;
  }

  /** Throws SubscriberTooSlow once the queue has overflowed. */
  assertKeepingUp(): void {
    if (this.overflowed) {
      throw new SubscriberTooSlow(`subscriber too slow: more than ${this.limit} events waiting`);
    }
  }

  /**
   * The next event; throws SubscriberTooSlow once the queue overflowed. Resolves undefined when
   * aborted. The abort is listened to once per signal, not once per wait (one per event).
   */
  async next(signal?: AbortSignal): Promise<FuxEvent | undefined> {
    for (;;) {
      this.assertKeepingUp();
      const item = this.items.shift();
      if (item) return item;
      if (signal?.aborted) return undefined;
      if (signal && this.watched !== signal) {
        this.watched = signal;
        signal.addEventListener('abort', () => this.wake?.(), { once: true });
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
