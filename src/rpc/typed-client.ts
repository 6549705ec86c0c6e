import { TRPCClientError, type TRPCClient } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import type { CallOperation, StreamLink } from './link';
import { pushStream, type Producer } from './push-stream';

/** What a call may be given besides its input (tRPC's options; `context` has no use without links). */
interface CallOptions {
  signal?: AbortSignal | null;
}

/** A subscription's callbacks, as tRPC's client takes them. */
interface SubscriptionOptions extends CallOptions {
  onStarted?(opts: { context: undefined }): void;
  onData?(data: unknown): void;
  onError?(error: unknown): void;
  onStopped?(): void;
  onComplete?(): void;
}

const CALLBACKS = ['onStarted', 'onData', 'onError', 'onStopped', 'onComplete'] as const;

const CALL_TYPES = { query: 'query', mutate: 'mutation', subscribe: 'subscription' } as const;
type CallName = keyof typeof CALL_TYPES;

function isCallName(name: string): name is CallName {
  return Object.hasOwn(CALL_TYPES, name);
}

/**
 * The typed client over one StreamLink: `client.tab.new.mutate(input)`, with tRPC's types and its
 * behaviour (a promise of the data for a query or mutation, rejected with a TRPCClientError; a
 * subscription's callbacks, and its `unsubscribe`), without tRPC's client runtime. That runtime
 * (the untyped client, an observable chain through the links, `share()`, the promise adapter)
 * took ~0.1 ms of the ~0.15 ms from a call to its request's write when a call comes after a pause,
 * as a keystroke does; here a call is a proxy lookup and the link's write.
 *
 * The proxy answers the path it is asked for; a path and its call methods are made once, then
 * reused. Like tRPC's client it is not a thenable (`await client` gives the client).
 */
export function createTypedClient<TRouter extends AnyTRPCRouter>(
  link: StreamLink<TRouter>,
): TRPCClient<TRouter> {
  const call = (name: CallName, path: string, args: unknown[]): unknown => {
    const [input, options] = args as [unknown, (SubscriptionOptions | undefined)?];
    const op: CallOperation = { type: CALL_TYPES[name], path, input, signal: options?.signal };
    if (name !== 'subscribe') return settle(link, op);
    // Without callbacks, tRPC's client gives the subscription's data as an async iterable.
    const callbacks = options ?? {};
    if (CALLBACKS.some((key) => callbacks[key] !== undefined)) return subscribe(link, op, callbacks);
    return pushStream(dataOf(link, op));
  };

  /** The proxy at `path`: each member (a deeper path, or a call method) is made on first use. */
  const node = (path: string): object => {
    const members = new Map<string, unknown>();
    return new Proxy(
      {},
      {
        get(_target, key) {
          if (typeof key !== 'string' || (path === '' && key === 'then')) return undefined;
          let member = members.get(key);
          if (member === undefined) {
            member =
              path !== '' && isCallName(key)
                ? (...args: unknown[]) => call(key, path, args)
                : node(path === '' ? key : `${path}.${key}`);
            members.set(key, member);
          }
          return member;
        },
      },
    );
  };

  // The proxy stands in for tRPC's: its shape is the router's, which only the types know.
  return node('') as TRPCClient<TRouter>;
}

/** A query's or mutation's data; rejected with the server's error, or when the call is aborted. */
function settle<TRouter extends AnyTRPCRouter>(
  link: StreamLink<TRouter>,
  op: CallOperation,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let done = false;
    // Set once `request` returns; a call on a closed link fails inside it, before that.
    const call: { stop?: () => void } = {};
    const finish = (): void => {
      done = true;
      call.stop?.();
    };
    call.stop = link.request(op, {
      next(envelope) {
        finish();
        resolve((envelope.result as { data?: unknown }).data);
      },
      error(error) {
        finish();
        reject(error);
      },
      complete() {
        if (done) return;
        finish();
        reject(new TRPCClientError(`the call to ${op.path} was aborted`));
      },
    });
    if (done) call.stop();
  });
}

/** A subscription: its results go to the callbacks tRPC's client would call for them. */
function subscribe<TRouter extends AnyTRPCRouter>(
  link: StreamLink<TRouter>,
  op: CallOperation,
  callbacks: SubscriptionOptions,
): { unsubscribe(): void } {
  let closed = false;
  // Set once `request` returns; a call on a closed link fails inside it, before that.
  const call: { stop?: () => void } = {};
  const unsubscribe = (): void => {
    if (closed) return;
    closed = true;
    call.stop?.();
  };
  call.stop = link.request(op, {
    next({ result }) {
      if (closed) return;
      if (result.type === 'started') callbacks.onStarted?.({ context: undefined });
      else if (result.type === 'stopped') callbacks.onStopped?.();
      else callbacks.onData?.((result as { data?: unknown }).data);
    },
    error(error) {
      if (closed) return;
      unsubscribe();
      callbacks.onError?.(error);
    },
    complete() {
      if (closed) return;
      unsubscribe();
      callbacks.onComplete?.();
    },
  });
  // Failed at once (the connection was already closed): nothing to stop but the abort listener.
  if (closed) call.stop();
  return { unsubscribe };
}

/**
 * A subscription's data items as a producer (push-stream.ts), for the async-iterable form: it
 * ends with the subscription, fails with its error, and stops it when the loop breaks.
 */
function dataOf<TRouter extends AnyTRPCRouter>(
  link: StreamLink<TRouter>,
  op: CallOperation,
): Producer<unknown> {
  return (emit, signal) =>
    new Promise<void>((resolve, reject) => {
      const stop = link.request(op, {
        next({ result }) {
          if (result.type === 'data' || result.type === undefined) emit((result as { data?: unknown }).data);
        },
        error: reject,
        complete: resolve,
      });
      signal.addEventListener(
        'abort',
        () => {
          stop();
          resolve();
        },
        { once: true },
      );
    });
}
