import type { Duplex } from 'node:stream';
import { TRPCClientError } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import type { TRPCErrorResponse, TRPCResponseMessage, TRPCResultMessage } from '@trpc/server/rpc';
import { DEFAULT_MAX_FRAME_BYTES, LineDecoder, encodeFrame } from './framing';

type CallError<TRouter extends AnyTRPCRouter> = TRPCClientError<TRouter>;

/** One call: a procedure's type and path, its input, and an optional signal that aborts it. */
export interface CallOperation {
  type: 'query' | 'mutation' | 'subscription';
  path: string;
  input: unknown;
  signal?: AbortSignal | null;
}

/** Where a call's replies go: each result (tRPC's `{ result }` envelope), its failure, its end. */
export interface CallObserver<TRouter extends AnyTRPCRouter> {
  next(envelope: { result: TRPCResultMessage<unknown>['result'] }): void;
  error(error: CallError<TRouter>): void;
  complete(): void;
}

interface PendingCall<TRouter extends AnyTRPCRouter> {
  type: CallOperation['type'];
  observer: CallObserver<TRouter>;
  /** The caller unsubscribed (tRPC's promise does as soon as it has its value). */
  stopped: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only the shapes a tRPC ws server sends get past here; anything else is a protocol breach. */
function isResponseMessage(value: unknown): value is TRPCResponseMessage {
  if (!isObject(value)) return false;
  const { id } = value;
  if (id !== null && typeof id !== 'number' && typeof id !== 'string') return false;
  return isObject(value.error) || (isObject(value.result) && typeof value.result.type === 'string');
}

function isErrorResponse(message: TRPCResponseMessage): message is TRPCResponseMessage & TRPCErrorResponse {
  return 'error' in message;
}

/**
 * A throw from a caller's callback must not unwind the frame loop (the frames after it would be
 * lost), so it is rethrown on its own turn of the event loop, as tRPC's ws link does.
 */
function callUserCode(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
}

/**
 * One stream's calls: writes each call as a request frame and routes the replies back by id, to the
 * typed client (typed-client.ts). It replaces `createWSClient`, whose per-call `sleep(0)` costs
 * ≥ 1 ms (DESIGN.md §11), and has no reconnect: a closed stream fails every pending call.
 */
export class StreamLink<TRouter extends AnyTRPCRouter> {
  private lastId = 0;
  private readonly pending = new Map<number, PendingCall<TRouter>>();
  /** Set once the stream is gone; every later call fails with it at once. */
  private closedError: CallError<TRouter> | undefined;
  /** The server says why it closes a connection in an `id: null` error just before it does. */
  private farewell: TRPCErrorResponse | undefined;

  constructor(
    private readonly stream: Duplex,
    private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  ) {
    const decoder = new LineDecoder({
      maxFrameBytes,
      onFrame: (frame) => this.receive(frame),
      onOversizeFrame: (bytes) =>
        this.breach(`a frame of ${bytes} bytes, over the ${maxFrameBytes}-byte limit`),
      onLost: (bytes) => this.breach(`more than ${bytes} bytes with no newline`),
    });
    stream.on('data', (chunk: Buffer | string) => {
      if (!this.closedError) decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    stream.on('error', (error) => this.shutdown(`the connection failed: ${error.message}`));
    // Without a readable side no reply can come, whatever the writable side still allows.
    stream.once('end', () => {
      this.shutdown('the server ended the connection');
      this.finish();
    });
    stream.once('close', () => this.shutdown('the connection to the server closed'));
    if (stream.destroyed) this.shutdown('the connection to the server closed');
  }

  /**
   * Calls mutation `path` as a notification: a request without an `id`, which the server runs in
   * order with the others and does not answer (a failure goes to its log). For input that must
   * not wait on, or pay for, a reply per message. Throws if the connection is closed or `input`
   * cannot be sent.
   */
  notify(path: string, input: unknown): void {
    if (this.closedError) throw this.closedError;
    this.stream.write(encodeFrame({ method: 'mutation', params: { path, input } }, this.maxFrameBytes));
  }

  /** Fails what is pending, sends what is already written, then lets the stream go. */
  close(): void {
    this.shutdown('the client closed the connection');
    this.finish();
  }

  private finish(): void {
    this.stream.end(() => this.stream.destroy());
  }

  /**
   * Sends one call; its replies go to `observer` (`next` per result, `error` on a failure,
   * `complete` when a subscription ends or the call is aborted). Returns the way to stop caring:
   * a subscription still running is told to stop.
   */
  request(op: CallOperation, observer: CallObserver<TRouter>): () => void {
    if (this.closedError) {
      observer.error(this.closedError);
      return () => undefined;
    }
    const id = ++this.lastId;
    let frame: Buffer;
    try {
      frame = encodeFrame(
        { id, method: op.type, params: { path: op.path, input: op.input } },
        this.maxFrameBytes,
      );
    } catch (error) {
      // Too large, or not JSON at all (a BigInt, a cycle): this call fails, the connection is fine.
      observer.error(TRPCClientError.from(error instanceof Error ? error : new Error(String(error))));
      return () => undefined;
    }
    const call: PendingCall<TRouter> = { type: op.type, observer, stopped: false };
    this.pending.set(id, call);
    this.stream.write(frame);

    // Like tRPC's own links, an aborted call completes without a value (the promise rejects).
    const abort = (): void => observer.complete();
    op.signal?.addEventListener('abort', abort, { once: true });
    return () => {
      call.stopped = true;
      op.signal?.removeEventListener('abort', abort);
      // Still pending here means the caller gave up first; a subscription must be told to stop.
      if (!this.pending.delete(id) || op.type !== 'subscription' || this.closedError) return;
      this.stream.write(encodeFrame({ id, method: 'subscription.stop' }));
    };
  }

  private receive(frame: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(frame.toString('utf8'));
    } catch {
      this.breach('a frame that is not JSON');
      return;
    }
    if (!isResponseMessage(message)) {
      this.breach('a frame that is not a tRPC response');
      return;
    }
    const { id } = message;
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (typeof id !== 'number' || !call) {
      if (id === null && isErrorResponse(message)) this.farewell = message;
      return;
    }
    if (isErrorResponse(message)) {
      this.pending.delete(id);
      callUserCode(() => call.observer.error(TRPCClientError.from(message)));
      return;
    }
    const { result } = message;
    const last = call.type !== 'subscription' || result.type === 'stopped';
    if (last) this.pending.delete(id);
    callUserCode(() => call.observer.next({ result }));
    // A query's or mutation's value is all its caller waits for: tRPC's promise settles on it (and
    // in @trpc/server 11.25 does not unsubscribe, so `stopped` stays false), and a completion after
    // it would only make that promise abort, building a DOMException with a stack, per call. A
    // subscription's end (`stopped`) is a completion its caller hears (onComplete).
    if (last && call.type === 'subscription' && !call.stopped) callUserCode(() => call.observer.complete());
  }

  /** The server sent something no tRPC server would: nothing after it can be trusted. */
  private breach(what: string): void {
    this.shutdown(`the server sent ${what}`);
    this.stream.destroy();
  }

  private shutdown(reason: string): void {
    if (this.closedError) return;
    this.closedError = this.farewell
      ? TRPCClientError.from<TRouter>(this.farewell)
      : new TRPCClientError<TRouter>(reason);
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) callUserCode(() => call.observer.error(this.closedError!));
  }
}
