import type { Duplex } from 'node:stream';

/**
 * What a procedure sees of the connection that called it (it is in the context). The tRPC adapter
 * writes replies without looking at the stream's buffer, so a streaming procedure awaits
 * `writable()` before producing its next item: that is the backpressure.
 */
export interface Connection {
  /** Unique among the connections of one handler. */
  readonly id: number;
  /** Resolves once the peer has taken what was written; rejects with an `AbortError` once closed. */
  writable(): Promise<void>;
  /** Whether `writable()` would resolve at once: open, and the peer keeping up. */
  canWrite(): boolean;
  /** Bytes written to the stream that the peer has not taken yet. */
  bufferedBytes(): number;
  /**
   * Tells the peer why (one error frame with `id: null`, after what it has not read yet), then ends
   * the stream once the peer has it.
   */
  close(reason: string): void;
  /** Aborted when the connection closes, for whatever cause; its `reason` says why. */
  readonly signal: AbortSignal;
}

export interface StreamConnectionOptions {
  /**
   * Output the peer may leave unread before it is cut off. Streaming procedures stop at the
   * stream's high-water mark; this bounds the rest (replies to a flood of calls never read).
   */
  maxBufferedBytes: number;
  /** The frame that tells the peer why the server closes the connection. */
  farewell: (reason: string) => Buffer;
  /** A stream error other than the peer vanishing, for the owner to report. */
  onStreamError: (error: Error) => void;
}

/** How long a closing connection may take to flush before it is destroyed anyway. */
const CLOSE_GRACE_MS = 1000;

/** The peer went away: routine for a client that exits or is killed, not worth reporting. */
const PEER_GONE_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
]);

/** The server's side of one stream: bounded writes, drain waiting and an orderly close. */
export class StreamConnection implements Connection {
  private readonly closer = new AbortController();
  readonly signal: AbortSignal = this.closer.signal;
  private drained: Promise<void> | undefined;

  constructor(
    private readonly stream: Duplex,
    readonly id: number,
    private readonly options: StreamConnectionOptions,
  ) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!PEER_GONE_CODES.has(error.code ?? '')) options.onStreamError(error);
    });
    // A peer that ends its side sends no more requests; without this a stream that allows half-open
    // connections (any Duplex by default) would linger once the peer is gone, until a write failed.
    stream.once('end', () => this.end('the peer ended the stream'));
    stream.once('close', () => this.markClosed('the peer closed the connection'));
  }

  get isOpen(): boolean {
    return !this.signal.aborted;
  }

  bufferedBytes(): number {
    return this.stream.writableLength;
  }

  canWrite(): boolean {
    return this.isOpen && !this.stream.writableNeedDrain;
  }

  writable(): Promise<void> {
    if (!this.isOpen) return Promise.reject(this.signal.reason);
    if (!this.stream.writableNeedDrain) return Promise.resolve();
    // One waiter per drain, however many subscriptions share the connection.
    this.drained ??= new Promise<void>((resolve, reject) => {
      const settle = (): void => {
        this.stream.off('drain', onDrain);
        this.signal.removeEventListener('abort', onAbort);
        this.drained = undefined;
      };
      const onDrain = (): void => {
        settle();
        resolve();
      };
      const onAbort = (): void => {
        settle();
        reject(this.signal.reason);
      };
      this.stream.on('drain', onDrain);
      this.signal.addEventListener('abort', onAbort);
    });
    return this.drained;
  }

  /** Queues one frame; dropped once closed. A peer that leaves too much unread is cut off. */
  send(frame: Buffer): void {
    if (!this.isOpen || !this.stream.writable) return;
    if (this.stream.writableLength + frame.length > this.options.maxBufferedBytes) {
      this.destroy(`the peer left more than ${this.options.maxBufferedBytes} bytes unread`);
      return;
    }
    this.write(frame);
  }

  close(reason: string): void {
    if (!this.isOpen) return;
    const farewell = this.options.farewell(reason);
    if (
      !this.stream.writable ||
      this.stream.writableLength + farewell.length > this.options.maxBufferedBytes
    ) {
      this.end(reason);
      return;
    }
    this.write(farewell);
    this.markClosed(reason);
    // The farewell is what the peer reads last, after everything it has not read yet, so the stream
    // goes only once all of it is out (or the peer is gone), however long the peer takes: a fixed
    // grace lost it for a reader that paused a little longer (a `fux subscribe` behind a slow
    // consumer read "the server ended the connection"). Meanwhile it holds what is already buffered
    // (at most maxBufferedBytes) and reads nothing more from the peer.
    this.stream.pause();
    this.stream.end(() => this.stream.destroy());
  }

  /** Ends the stream without a farewell frame, for a closer that already told the peer why. */
  end(reason: string): void {
    if (!this.isOpen) return;
    this.markClosed(reason);
    this.stream.end();
    // A peer that is not reading would hold the end back for ever.
    setTimeout(() => this.stream.destroy(), CLOSE_GRACE_MS).unref();
  }

  private destroy(reason: string): void {
    this.markClosed(reason);
    this.stream.destroy();
  }

  private write(frame: Buffer): void {
    try {
      this.stream.write(frame);
    } catch (error) {
      // Streams report write failures as 'error' events; a stream that throws instead must still
      // never throw into the procedure that produced the reply.
      this.options.onStreamError(error instanceof Error ? error : new Error(String(error)));
      this.destroy('the stream failed a write');
    }
  }

  private markClosed(reason: string): void {
    if (this.isOpen) this.closer.abort(new DOMException(`connection closed: ${reason}`, 'AbortError'));
  }
}
