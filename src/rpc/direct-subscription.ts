import { observableToAsyncIterable, isObservable } from '@trpc/server/observable';
import {
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  isTrackedEnvelope,
  TRPCError,
  type AnyTRPCRouter,
  type inferRouterContext,
} from '@trpc/server';
import type { StreamConnection } from './connection';
import type { LeanProcedure } from './lean-call';
import { producerOf, producerOfIterable, type Producer } from './push-stream';

type RequestId = number | string;

/** A subscription request as it arrives. */
export interface SubscriptionCall {
  id: RequestId;
  jsonrpc: '2.0' | undefined;
  path: string;
  input: unknown;
}

/** How the subscriptions reach the caller that owns the connection's replies. */
export interface SubscriptionReplies<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  connection: StreamConnection;
  /** Writes one reply (a data item too large for a frame throws a TRPCError). */
  respond(call: SubscriptionCall, body: { result: unknown } | { error: unknown }): void;
  /** Reports `error` to the server's log and returns the error reply's body. */
  fail(call: SubscriptionCall, ctx: inferRouterContext<TRouter>, error: TRPCError): { error: unknown };
  /** Reports an error that has no one left to reply to. */
  report(call: SubscriptionCall, ctx: inferRouterContext<TRouter>, error: TRPCError): void;
  /** The subscription procedure at `path` called without tRPC's chain, if it can be (lean-call.ts). */
  lean(path: string): LeanProcedure<TRouter> | undefined;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The `result` of one item, as the adapter writes it (a tracked item carries its id). */
function dataResult(value: unknown): { type: 'data'; data: unknown; id?: string } {
  if (isTrackedEnvelope(value)) {
    const [id, data] = value;
    return { type: 'data', id, data: { id, data } };
  }
  return { type: 'data', data: value };
}

/**
 * A connection's subscriptions served without the ws adapter, on the wire exactly as the adapter
 * serves them: `started` once the procedure has returned its stream, one `data` reply per item, an
 * error reply if the stream fails, and `stopped` when it ends (by itself, or after a
 * `subscription.stop` or an error; not after a failed start). Each item is written from the
 * producer's own loop as it is emitted (see push-stream.ts); an async generator or observable is
 * pulled item by item into the same writes. A subscription's `signal` aborts on its stop and when
 * the connection closes; its id is free again once its stream has finished.
 */
export class DirectSubscriptions<TRouter extends AnyTRPCRouter> {
  private readonly live = new Map<RequestId, AbortController>();

  constructor(private readonly replies: SubscriptionReplies<TRouter>) {
    replies.connection.signal.addEventListener(
      'abort',
      () => {
        for (const stop of this.live.values()) stop.abort();
      },
      { once: true },
    );
  }

  start(call: SubscriptionCall, ctx: inferRouterContext<TRouter>): void {
    const { replies } = this;
    if (this.live.has(call.id)) {
      const error = new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${call.id}` });
      replies.respond(call, replies.fail(call, ctx, error));
      return;
    }
    const stop = new AbortController();
    if (!replies.connection.isOpen) stop.abort();
    this.live.set(call.id, stop);
    this.run(call, ctx, stop.signal)
      .catch((cause: unknown) => {
        // A reply that could not be built or written: the adapter logs such failures the same way.
        console.error('[src/rpc direct subscription]', cause);
      })
      .finally(() => this.live.delete(call.id));
  }

  /** How many of this connection's subscriptions are running. */
  get running(): number {
    return this.live.size;
  }

  /** Stops the subscription `id` if it is one of these (true), else leaves it to the adapter. */
  stop(id: RequestId): boolean {
    const stop = this.live.get(id);
    stop?.abort();
    return stop !== undefined;
  }

  private async run(
    call: SubscriptionCall,
    ctx: inferRouterContext<TRouter>,
    signal: AbortSignal,
  ): Promise<void> {
    const { replies } = this;
    const { router, connection } = replies;
    const { path, input } = call;
    let produce: Producer<unknown>;
    try {
      // A lean start runs the procedure now, in the order the requests came, as calls do.
      const lean = replies.lean(path)?.({ ctx, path, input, signal }) ?? 'fallback';
      let result: unknown;
      if (lean === 'fallback') {
        const getRawInput = async (): Promise<unknown> => input;
        result = await callTRPCProcedure({
          router,
          path,
          getRawInput,
          ctx,
          type: 'subscription',
          signal,
          batchIndex: 0,
        });
      } else {
        const outcome = await lean;
        if (!outcome.ok) throw outcome.error;
        result = outcome.data;
      }
      produce = this.producerOf(call, ctx, result, signal);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      // A start the client or the connection cancelled is not answered (as in the adapter).
      if (signal.aborted && isAbortError(error.cause)) return;
      replies.respond(call, replies.fail(call, ctx, error));
      return;
    }
    // A stream stopped before it started still runs, with its signal aborted, so its cleanup runs.
    const started = !signal.aborted && connection.isOpen;
    if (started) replies.respond(call, { result: { type: 'started' } });
    let producing = true;
    const emit = (item: unknown): void => {
      if (producing && !signal.aborted) replies.respond(call, { result: dataResult(item) });
    };
    try {
      await produce(emit, signal);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      if (!signal.aborted) {
        replies.respond(call, replies.fail(call, ctx, error));
      } else if (!isAbortError(error.cause) && !isAbortError(cause)) {
        replies.report(call, ctx, error);
      }
    }
    // An emit the producer makes after it has settled (a callback it left behind) is not sent.
    producing = false;
    if (started) replies.respond(call, { result: { type: 'stopped' } });
  }

  private producerOf(
    call: SubscriptionCall,
    ctx: inferRouterContext<TRouter>,
    result: unknown,
    signal: AbortSignal,
  ): Producer<unknown> {
    const pushed = producerOf(result);
    if (pushed) return pushed;
    const afterStop = (cause: unknown): void => {
      const error = getTRPCErrorFromUnknown(cause);
      if (!isAbortError(error.cause) && !isAbortError(cause)) this.replies.report(call, ctx, error);
    };
    if (isObservable(result)) return producerOfIterable(observableToAsyncIterable(result, signal), afterStop);
    if (isAsyncIterable(result)) return producerOfIterable(result, afterStop);
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: `Subscription ${call.path} did not return an observable or a AsyncGenerator`,
    });
  }
}
