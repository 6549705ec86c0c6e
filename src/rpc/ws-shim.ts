import { EventEmitter } from 'node:events';
import { TRPCError } from '@trpc/server';
import type { StreamConnection } from './connection';
import { FrameTooLargeError, frameJson } from './framing';

/** The `ws` readyState values the tRPC adapter compares against. */
const OPEN = 1;
const CLOSED = 3;

/**
 * The part of a `ws` WebSocket that `getWSConnectionHandler` touches (read in
 * @trpc/server/dist/adapters/ws: `readyState`, `send`, `close`, and the 'message', 'error' and
 * 'close' events), over one newline-framed stream. Each decoded frame is one WebSocket message.
 */
export class WsShim extends EventEmitter {
  constructor(
    private readonly connection: StreamConnection,
    private readonly maxFrameBytes: number,
  ) {
    super();
    // The adapter aborts the connection's subscriptions on 'close', whoever closed it.
    connection.signal.addEventListener('abort', () => this.emit('close'), { once: true });
  }

  get readyState(): number {
    return this.connection.isOpen ? OPEN : CLOSED;
  }

  /** A text frame from the peer, as `ws` would deliver it. */
  deliver(frame: Buffer): void {
    this.emit('message', frame, false);
  }

  /**
   * The adapter's replies. One too large for a frame throws a TRPCError, which the adapter turns
   * into an error reply to the same request id, so the caller learns why instead of waiting.
   */
  send(json: string): void {
    let frame: Buffer;
    try {
      frame = frameJson(json, this.maxFrameBytes);
    } catch (error) {
      if (!(error instanceof FrameTooLargeError)) throw error;
      throw new TRPCError({
        code: 'PAYLOAD_TOO_LARGE',
        message: `the reply of ${error.bytes} bytes exceeds the ${error.limit}-byte frame limit`,
      });
    }
    this.connection.send(frame);
  }

  /** The adapter closes after a failed createContext, having already sent the error. */
  close(): void {
    this.connection.end('the context could not be created');
  }
}
