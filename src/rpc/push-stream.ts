/** Hands one item of a stream on; the direct path writes it to the connection before returning. */
export type Emit<T> = (item: T) => void;

/**
 * Produces a stream's items by calling `emit`, from its own loop, until it is done (it resolves),
 * fails (it rejects) or `signal` aborts, after which it must return soon and emit nothing more.
 * It paces itself (a streaming procedure awaits the connection's `writable()` before producing).
 */
export type Producer<T> = (emit: Emit<T>, signal: AbortSignal) => Promise<void>;

const PRODUCER = Symbol('rpc.producer');

/**
 * A subscription's result that the direct path (direct-call.ts) runs by its producer: each item is
 * written as it is emitted, with no async iterator between the producer and the connection (no
 * promise turn, race or generator resumption per item). It is also an AsyncIterable, which is
 * what tRPC's types, its ws adapter and server-side callers see.
 */
export interface PushStream<T> extends AsyncIterable<T> {
  readonly [PRODUCER]: Producer<T>;
}

export function pushStream<T>(produce: Producer<T>): PushStream<T> {
  return { [PRODUCER]: produce, [Symbol.asyncIterator]: () => iterate(produce) };
}

/** The producer of `value` if it is a PushStream. */
export function producerOf(value: unknown): Producer<unknown> | undefined {
  if (typeof value !== 'object' || value === null || !(PRODUCER in value)) return undefined;
  return (value as PushStream<unknown>)[PRODUCER];
}

type Ending = { failed: false } | { failed: true; error: unknown };

/**
 * The same stream pulled as an async iterator: the producer runs from the first call on, its items
 * wait in a buffer for `next()`, and `return()` aborts it and waits for it to finish. The buffer
 * holds what was produced between two pulls; the producer's own pacing bounds it.
 */
function iterate<T>(produce: Producer<T>): AsyncIterator<T> {
  const stop = new AbortController();
  const items: T[] = [];
  let ending: Ending | undefined;
  let wake: (() => void) | undefined;
  const finished = Promise.resolve()
    .then(() =>
      produce((item) => {
        if (stop.signal.aborted || ending) return;
        items.push(item);
        wake?.();
      }, stop.signal),
    )
    .then(
      () => {
        ending = { failed: false };
        wake?.();
      },
      (error: unknown) => {
        ending = { failed: true, error };
        wake?.();
      },
    );
  return {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (items.length > 0) return { done: false, value: items.shift()! };
        if (ending?.failed) throw ending.error;
        if (ending) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
    async return(): Promise<IteratorResult<T>> {
      stop.abort();
      await finished;
      items.length = 0;
      return { done: true, value: undefined };
    },
  };
}

/**
 * A producer that pulls `iterable` (a procedure's async generator): each item is emitted as it
 * comes; an abort stops waiting for the next one and disposes of the iterator. A failure of the
 * pending `next()` after the abort goes to `afterStop` (the subscription has already ended).
 */
export function producerOfIterable<T>(
  iterable: AsyncIterable<T>,
  afterStop: (error: unknown) => void,
): Producer<T> {
  return async (emit, signal) => {
    const iterator = iterable[Symbol.asyncIterator]();
    const aborted = new Promise<'abort'>((resolve) => {
      if (signal.aborted) resolve('abort');
      else signal.addEventListener('abort', () => resolve('abort'), { once: true });
    });
    let completed = false;
    try {
      for (;;) {
        const next = await Promise.race([
          iterator.next().catch((error: unknown) => {
            if (!signal.aborted) throw error;
            afterStop(error);
            return 'abort' as const;
          }),
          aborted,
        ]);
        if (next === 'abort') return;
        if (next.done) {
          completed = true;
          return;
        }
        emit(next.value);
      }
    } finally {
      if (!completed) await iterator.return?.();
    }
  };
}
