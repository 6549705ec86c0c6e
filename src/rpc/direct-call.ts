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
import { DirectSubscriptions } from './direct-subscription';
import { HeldReply, holdsReply } from './held-reply';
import { leanProcedure, type LeanOutcome, type LeanProcedure } from './lean-call';
import type { ReplyFramer } from './reply-framer';

type RequestId = number | string;

/** A request as it arrives: a notification (a mutation without an id) has `id` undefined. */
interface Call {
  id: RequestId | undefined;
  jsonrpc: '2.0' | undefined;
  type: 'query' | 'mutation' | 'subscription';
  path: string;
  input: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'number' || typeof id === 'string';
}

/**
 * The request in `message` if it is one the direct path serves exactly as the adapter would: one
 * request (not a batch), a query, mutation or subscription with a number or string id (or a
 * mutation without one, a notification), a path, and no `lastEventId`. Anything else (batches,
 * resumed subscriptions, malformed requests) is left to the adapter, which answers it as it
 * always has.
 */
function directRequest(
  message: unknown,
): (Call & { type: 'query' | 'mutation' | 'subscription' }) | undefined {
  if (!isObject(message)) return undefined;
  const { id, jsonrpc, method, params } = message;
  if (method !== 'query' && method !== 'mutation' && method !== 'subscription') return undefined;
  if ('id' in message) {
    if (!isRequestId(id)) return undefined;
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

/** What a reply needs of its call: the id it answers, and the procedure for an error's shape. */
type ReplyCall = Pick<Call, 'id' | 'jsonrpc'> & Partial<Pick<Call, 'path' | 'type'>>;

export interface DirectCallerOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  connection: StreamConnection;
  /** The connection's replies, each sure to fit in a frame. */
  framer: ReplyFramer;
  onError?: WSConnectionHandlerOptions<TRouter>['onError'];
}

/**
 * Serves queries and mutations by calling the procedure (`callTRPCProcedure`: the router's
 * middleware, the input's validation, the resolver, the output's) and writing the reply itself,
 * without the ws adapter's per-request machinery (an AbortController, a disposal stack, a settle
 * wrapper and object spreads per call: about a tenth of a millisecond of CPU, the typing path's
 * largest share after the socket writes). A procedure with no middleware of its own skips tRPC's
 * chain too (lean-call.ts) and, with a synchronous resolver, runs in the turn its request arrives;
 * one with middlewares goes through the chain, so it may finish after calls sent behind it (as an
 * asynchronous resolver may). Subscriptions are served here too, with their stops
 * (direct-subscription.ts), so a pane's events and an attached client's frames are written from
 * their producer's loop. Replies are byte for byte the adapter's; requests start in the order they
 * arrive, as they do through the adapter.
 */
export class DirectCaller<TRouter extends AnyTRPCRouter> {
  private ctx: { value: inferRouterContext<TRouter> } | undefined;
  private readonly subscriptions: DirectSubscriptions<TRouter>;
  /** By type, each path's lean call (lean-call.ts), or null where tRPC's chain must run; found on first use. */
  private readonly lean: Record<Call['type'], Map<string, LeanProcedure<TRouter> | null>> = {
    query: new Map(),
    mutation: new Map(),
    subscription: new Map(),
  };
  /** By path, whether a procedure's reply may be held (held-reply.ts); found on first use. */
  private readonly holds = new Map<string, boolean>();
  private readonly held = new HeldReply();

  constructor(private readonly options: DirectCallerOptions<TRouter>) {
    this.subscriptions = new DirectSubscriptions({
      router: options.router,
      connection: options.connection,
      respond: (call, body) => this.reply({ ...call, type: 'subscription' }, body),
      fail: (call, ctx, error) => this.fail({ ...call, type: 'subscription' }, ctx, error),
      report: (call, ctx, error) => this.report({ ...call, type: 'subscription' }, ctx, error),
      lean: (path) => this.leanAt(path, 'subscription'),
    });
  }

  /** The connection's context is made: from now on calls can be served here. */
  ready(ctx: inferRouterContext<TRouter>): void {
    this.ctx = { value: ctx };
  }

  /** Serves `message` and returns true, or returns false for the adapter to handle it. */
  take(message: unknown): boolean {
    if (this.ctx === undefined) return false;
    if (isObject(message) && message.method === 'subscription.stop')
      return isRequestId(message.id) && this.subscriptions.stop(message.id);
    const request = directRequest(message);
    if (request === undefined) return false;
    const ctx = this.ctx.value;
    if (request.type === 'subscription') {
      if (request.id !== undefined) this.subscriptions.start({ ...request, id: request.id }, ctx);
      return true;
    }
    const call: Call = { ...request, type: request.type };
    const { router, connection } = this.options;
    const { type, path, input } = call;
    const signal = connection.signal;
    const lean = this.leanAt(path, request.type);
    const result = lean?.({ ctx, path, input, signal }) ?? 'fallback';
    if (result === 'fallback') {
      callTRPCProcedure({
        router,
        path,
        getRawInput: async () => input,
        ctx,
        type,
        signal,
        batchIndex: 0,
      }).then(
        (data: unknown) => this.answer(call, ctx, { ok: true, data }),
        (cause: unknown) => this.answer(call, ctx, { ok: false, error: getTRPCErrorFromUnknown(cause) }),
      );
    } else if (result instanceof Promise) {
      void result.then((outcome) => this.answer(call, ctx, outcome));
    } else {
      this.answer(call, ctx, result);
    }
    return true;
  }

  private leanAt(path: string, type: Call['type']): LeanProcedure<TRouter> | undefined {
    const known = this.lean[type];
    let lean = known.get(path);
    if (lean === undefined) {
      lean = leanProcedure(this.options.router, path, type) ?? null;
      known.set(path, lean);
    }
    return lean ?? undefined;
  }

  /** Replies with a call's outcome: its data, or its error as the adapter would shape it. */
  private answer(call: Call, ctx: inferRouterContext<TRouter>, outcome: LeanOutcome): void {
    try {
      if (!outcome.ok) throw outcome.error;
      if (isObject(outcome.data) && Symbol.asyncIterator in outcome.data)
        throw new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: `Cannot return an async iterable or observable from a ${call.type} procedure with WebSockets`,
        });
      const body = { result: { type: 'data', data: outcome.data } };
      if (!this.mayHold(call)) this.reply(call, body);
      else {
        const frame = this.frame(call, body);
        this.held.hold(() => this.send(frame));
      }
    } catch (cause) {
      try {
        this.reply(call, this.fail(call, ctx, getTRPCErrorFromUnknown(cause)));
      } catch (failure) {
        // The error formatter failed (a bug): the adapter logs such failures the same way.
        console.error('[src/rpc direct call]', failure);
      }
    }
  }

  /** A reply to hold: its procedure asks for it, and a subscription of this connection may bring a frame soon. */
  private mayHold(call: Call): boolean {
    if (call.id === undefined || this.subscriptions.running === 0) return false;
    let holds = this.holds.get(call.path);
    if (holds === undefined) {
      holds = holdsReply(this.options.router, call.path);
      this.holds.set(call.path, holds);
    }
    return holds;
  }

  /** Reports `error` to the server's log and returns the body of its error reply. */
  private fail(call: Call, ctx: inferRouterContext<TRouter>, error: TRPCError): { error: unknown } {
    this.report(call, ctx, error);
    const { type, path, input } = call;
    const config = this.options.router._def._config;
    return { error: getTRPCErrorShape({ config, error, type, path, input, ctx }) };
  }

  private report(call: Call, ctx: inferRouterContext<TRouter>, error: TRPCError): void {
    const { type, path, input } = call;
    this.options.onError?.({ error, path, type, ctx, req: NO_UPGRADE_REQUEST, input });
  }

  /** A notification gets no reply; a reply too large for a frame becomes an error (reply-framer.ts). */
  private reply(call: ReplyCall, body: { result: unknown } | { error: unknown }): void {
    if (call.id !== undefined) this.send(this.frame(call, body));
  }

  private frame(call: ReplyCall, body: { result: unknown } | { error: unknown }): Buffer {
    const { id = null, jsonrpc, path, type } = call;
    return this.options.framer.frame({ id, jsonrpc, path, type }, body);
  }

  /** Writes one frame; a held reply leaves right behind it. */
  private send(frame: Buffer): void {
    if (!this.options.connection.isOpen) return;
    this.options.connection.send(frame);
    this.held.flush();
  }
}
