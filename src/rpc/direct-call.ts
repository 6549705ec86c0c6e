import type { IncomingMessage } from 'node:http';
import {
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  TRPCError,
  type AnyTRPCRouter,
  type inferRouterContext,
} from '@trpc/server';
import type { WSConnectionHandlerOptions } from '@trpc/server/adapters/ws';
import type { StreamConnection } from './connection';
import { replyFrame } from './ws-shim';

type RequestId = number | string;

/** A query or mutation as it arrives: a notification (a mutation without an id) has `id` undefined. */
interface Call {
  id: RequestId | undefined;
  jsonrpc: '2.0' | undefined;
  type: 'query' | 'mutation';
  path: string;
  input: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The call in `message` if it is one the direct path serves exactly as the adapter would: one
 * request (not a batch), a query or a mutation with a number or string id (or a mutation without
 * one, a notification), a path, and no `lastEventId`. Anything else (subscriptions, stops,
 * batches, malformed requests) is left to the adapter, which answers it as it always has.
 */
function directCall(message: unknown): Call | undefined {
  if (!isObject(message)) return undefined;
  const { id, jsonrpc, method, params } = message;
  if (method !== 'query' && method !== 'mutation') return undefined;
  if ('id' in message) {
    if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  } else if (method !== 'mutation') return undefined;
  if (jsonrpc !== undefined && jsonrpc !== '2.0') return undefined;
  if (!isObject(params) || typeof params.path !== 'string' || params.lastEventId !== undefined)
    return undefined;
  return {
    id: id as RequestId | undefined,
    jsonrpc: jsonrpc as '2.0' | undefined,
    type: method,
    path: params.path,
    input: params.input,
  };
}

const NO_UPGRADE_REQUEST = { url: '/', headers: {} } as IncomingMessage;

export interface DirectCallerOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  connection: StreamConnection;
  maxFrameBytes: number;
  onError?: WSConnectionHandlerOptions<TRouter>['onError'];
}

/**
 * Serves queries and mutations by calling the procedure (`callTRPCProcedure`: the router's
 * middleware, the input's validation, the resolver, the output's) and writing the reply itself,
 * without the ws adapter's per-request machinery (an AbortController, a disposal stack, a settle
 * wrapper and object spreads per call: about a tenth of a millisecond of CPU, the typing path's
 * largest share after the socket writes). Replies are byte for byte the adapter's. Subscriptions
 * stay with the adapter, which owns their lifetime; calls start in the order they arrive, as
 * they do through the adapter.
 */
export class DirectCaller<TRouter extends AnyTRPCRouter> {
  private ctx: { value: inferRouterContext<TRouter> } | undefined;

  constructor(private readonly options: DirectCallerOptions<TRouter>) {}

  /** The connection's context is made: from now on calls can be served here. */
  ready(ctx: inferRouterContext<TRouter>): void {
    this.ctx = { value: ctx };
  }

  /** Serves `message` and returns true, or returns false for the adapter to handle it. */
  take(message: unknown): boolean {
    if (this.ctx === undefined) return false;
    const call = directCall(message);
    if (call === undefined) return false;
    const ctx = this.ctx.value;
    const { router, connection } = this.options;
    const { type, path, input } = call;
    const signal = connection.signal;
    callTRPCProcedure({ router, path, getRawInput: async () => input, ctx, type, signal, batchIndex: 0 })
      .then((data: unknown) => {
        if (isObject(data) && Symbol.asyncIterator in data)
          throw new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: `Cannot return an async iterable or observable from a ${type} procedure with WebSockets`,
          });
        this.reply(call, { result: { type: 'data', data } });
      })
      .catch((cause: unknown) => {
        const error = getTRPCErrorFromUnknown(cause);
        this.options.onError?.({ error, path, type, ctx, req: NO_UPGRADE_REQUEST, input });
        const config = router._def._config;
        this.reply(call, { error: getTRPCErrorShape({ config, error, type, path, input, ctx }) });
      })
      .catch((cause: unknown) => {
        // The formatter or the write failed: the adapter logs such failures the same way.
        console.error('[src/rpc direct call]', cause);
      });
    return true;
  }

  /**
   * A notification gets no reply. A reply too large for a frame throws a TRPCError, which the
   * caller turns into an error reply to the same id, as the adapter does.
   */
  private reply(call: Call, body: { result: unknown } | { error: unknown }): void {
    const { connection, maxFrameBytes } = this.options;
    if (call.id === undefined || !connection.isOpen) return;
    connection.send(
      replyFrame(JSON.stringify({ id: call.id, jsonrpc: call.jsonrpc, ...body }), maxFrameBytes),
    );
  }
}
