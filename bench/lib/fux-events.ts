import { performance } from 'node:perf_hooks';
import type { Connection } from '../../src/client';
import type { EventType, FuxEvent } from '../../src/server/events';
import { within } from './wait';

/** An event and when it reached this process (performance.now()). */
export interface Arrival {
  event: FuxEvent;
  at: number;
}

interface Waiter {
  matches(event: FuxEvent): boolean;
  resolve(arrival: Arrival): void;
}

/**
 * One subscription held open for a whole benchmark, with "wait for the next event like this".
 * A waiter is registered before the action that causes its event, so nothing can slip past;
 * events no one waits for are dropped. Arrival is stamped on receipt, not when the waiter runs.
 */
export class FuxEventStream {
  private readonly waiters = new Set<Waiter>();
  private failure: Error | undefined;
  private stopSubscription: () => void = () => undefined;

  static async open(conn: Connection, events: EventType[], workspace?: string): Promise<FuxEventStream> {
    const stream = new FuxEventStream();
    await within(
      new Promise<void>((resolve, reject) => {
        const sub = conn.client.subscribe.subscribe(
          { events, workspace },
          {
            onStarted: () => resolve(),
            // Never resumed (no `since`), so never sent a gap.
            onData: (event) => event.type !== 'events.gap' && stream.deliver(event),
            onError: (err) => {
              stream.failure = err;
              reject(err);
            },
          },
        );
        stream.stopSubscription = () => sub.unsubscribe();
      }),
      5_000,
      'the event subscription to start',
    );
    // "started" can precede the server's listener by a turn; one round trip puts it in place.
    await conn.client.list.query({});
    return stream;
  }

  /** The next matching event; register it *before* triggering the event. */
  next(matches: (event: FuxEvent) => boolean, timeoutMs: number, what: string): Promise<Arrival> {
    if (this.failure) return Promise.reject(this.failure);
    let waiter: Waiter | undefined;
    const arrived = new Promise<Arrival>((resolve) => {
      waiter = { matches, resolve };
      this.waiters.add(waiter);
    });
    return within(arrived, timeoutMs, what).finally(() => this.waiters.delete(waiter!));
  }

  close(): void {
    this.stopSubscription();
  }

  private deliver(event: FuxEvent): void {
    const at = performance.now();
    for (const waiter of this.waiters) {
      if (!waiter.matches(event)) continue;
      this.waiters.delete(waiter);
      waiter.resolve({ event, at });
    }
  }
}
