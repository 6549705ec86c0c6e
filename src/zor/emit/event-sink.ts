/**
 * Where event lines go: a unix socket (zor connects as a client), a fifo, or fd 3 (`--events -`,
 * since stdout is the pty's). Writing never blocks the pty: lines go through libuv's non-blocking
 * writes, and when the reader falls behind (its pipe full, our small queue over its bound) a line
 * is dropped and counted instead. The next line carries the current state, so a drop costs nothing
 * durable.
 */
import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { connect, Socket } from 'node:net';

/** Bytes queued in user space before lines are dropped: a few hundred lines. */
const QUEUE_LIMIT = 64 * 1024;
/** A lost socket or a fifo with no reader is retried at most this often. */
const RETRY_MS = 1000;

export interface EventSink {
  /** Queues one line (without its newline); drops it when the reader is behind or gone. */
  write(line: string): void;
  /** Lines dropped so far. */
  readonly dropped: number;
  /** Flushes what is queued (best effort) and closes. */
  close(): Promise<void>;
}

type Clock = () => number;

/** Shared by the socket, fifo and fd-3 sinks: a net.Socket over a stream fd, with a bounded queue. */
abstract class StreamSink implements EventSink {
  protected socket: Socket | undefined;
  private droppedLines = 0;
  private lastAttempt = Number.NEGATIVE_INFINITY;

  constructor(protected readonly clock: Clock) {}

  get dropped(): number {
    return this.droppedLines;
  }

  /** Opens the stream now (a socket connects once at start) unless a retry is not yet due. */
  ensureOpen(): void {
    if (this.socket !== undefined || this.clock() - this.lastAttempt < RETRY_MS) return;
    this.lastAttempt = this.clock();
    const socket = this.open();
    if (socket === undefined) return;
    const forget = () => {
      socket.destroy();
      if (this.socket === socket) this.socket = undefined;
    };
    socket.on('error', forget);
    socket.on('close', forget);
    this.socket = socket;
  }

  write(line: string): void {
    this.ensureOpen();
    const socket = this.socket;
    // While a socket connects, Node queues the write; the same bound applies.
    if (socket === undefined || !socket.writable || socket.writableLength > QUEUE_LIMIT) {
      this.droppedLines++;
      return;
    }
    socket.write(line + '\n');
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket === undefined || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      // A reader that stopped reading must not keep zor alive at exit.
      const timer = setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
      socket.end(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Opens the stream, or returns undefined to try again later (dropping lines meanwhile). */
  protected abstract open(): Socket | undefined;
}

class UnixSocketSink extends StreamSink {
  constructor(
    private readonly path: string,
    clock: Clock,
  ) {
    super(clock);
  }

  protected open(): Socket {
    return connect(this.path);
  }
}

class FifoSink extends StreamSink {
  constructor(
    private readonly path: string,
    clock: Clock,
  ) {
    super(clock);
  }

  protected open(): Socket | undefined {
    try {
      // Non-blocking open fails with ENXIO while nobody has the fifo open for reading.
      const fd = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
      return new Socket({ fd, readable: false, writable: true });
    } catch {
      return undefined;
    }
  }
}

class DescriptorSink extends StreamSink {
  constructor(
    private readonly fd: number,
    clock: Clock,
  ) {
    super(clock);
  }

  protected open(): Socket | undefined {
    try {
      return new Socket({ fd: this.fd, readable: false, writable: true });
    } catch {
      return undefined;
    }
  }
}

/** fd 3 redirected to a file: writes to a file never block, so they go straight through. */
class FileSink implements EventSink {
  constructor(private readonly fd: number) {}

  readonly dropped = 0;

  write(line: string): void {
    writeSync(this.fd, line + '\n');
  }

  close(): Promise<void> {
    closeSync(this.fd);
    return Promise.resolve();
  }
}

export class EventSinkError extends Error {}

function started(sink: StreamSink): StreamSink {
  sink.ensureOpen();
  return sink;
}

/** The descriptor `--events -` writes to. */
export const EVENTS_FD = 3;

/** Opens the sink `--events TARGET` names: `-` for fd 3, else a unix socket or fifo path. */
export function openEventSink(target: string, clock: Clock = Date.now): EventSink {
  if (target === '-') {
    let kind;
    try {
      kind = fstatSync(EVENTS_FD);
    } catch {
      throw new EventSinkError('--events -: fd 3 is not open; run zor with 3>FILE or 3>&N, or give a path');
    }
    if (!kind.isFIFO() && !kind.isSocket()) return new FileSink(EVENTS_FD);
    return started(new DescriptorSink(EVENTS_FD, clock));
  }
  let kind;
  try {
    kind = statSync(target);
  } catch {
    throw new EventSinkError(
      `--events ${target}: no such socket or fifo; create it first (mkfifo, or a listening socket)`,
    );
  }
  if (kind.isSocket()) return started(new UnixSocketSink(target, clock));
  if (kind.isFIFO()) return started(new FifoSink(target, clock));
  throw new EventSinkError(`--events ${target}: not a unix socket or fifo; use one of those, or - for fd 3`);
}
