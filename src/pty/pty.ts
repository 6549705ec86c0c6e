/**
 * A child process on a pseudo-terminal (node-pty), as a byte source and sink, hardened once for
 * both of its users: the fux server's panes (src/server/pane/pty-process.ts) and the zor wrapper
 * (src/zor/wrapper/child-pty.ts). It lives in its own folder rather than under either of them
 * because src/zor may import nothing from the server (DESIGN.md §3) and the server should not
 * reach into the wrapper's internals; like src/rpc, src/pty knows nothing of fux.
 *
 * What it adds to node-pty:
 *
 * - **The tail of the output.** libuv ends a stream when the fd reports a hang-up after a short
 *   read, but a pty master always reads short (≤ 4 KiB), so it can declare end-of-file while the
 *   kernel still holds output (measured: a bare reader lost the last 5–8 KB of `seq 1 300000` in 1
 *   run of 3, a pane in 5 of 5). On that `end` the fd is still open, and reading it to EIO recovers
 *   the rest.
 * - **Death while paused.** After the child exits, node-pty destroys the stream if it has not
 *   closed within 200 ms, which it cannot while reading is paused. So while paused the child's
 *   liveness is checked and the owner told (`childGone`) when it is gone, to resume reading. One
 *   gap remains: a pause only stops reads once Node's stream buffer (16 KiB) is full, and if the
 *   kernel reports EIO while that buffer holds data, Node discards it; that needs the child to exit
 *   within the few reads after a pause, which only a flood can bring about.
 * - **Synchronous writes.** node-pty queues every write and hands it to libuv's thread pool
 *   (`fs.write`), so a keystroke waits for a pool thread and the callback's trip back to the event
 *   loop (docs/benchmarks.md, B2 and B8). The master is non-blocking, so `fs.writeSync` on it
 *   costs one system call and never blocks: what the kernel takes goes at once, and only the rest
 *   (EAGAIN, a partial write) goes to node-pty's queue. While that queue holds anything every
 *   write joins it, so bytes reach the child in the order they were written.
 * - **No writes or signals after the end.** Once the pty has closed its fd number may belong to
 *   another file, and once the child is reaped its pid to another process.
 *
 * Bytes are delivered raw (`encoding: null`): decoding UTF-8 across chunks is the reader's job.
 */
import { readSync, writeSync } from 'node:fs';
import * as nodePty from 'node-pty';
import { isAlive } from '../process-alive';

/** How the child ended: an exit code, or the number of the signal that killed it. */
export interface PtyExit {
  readonly code: number | null;
  readonly signal: number | null;
}

export interface PtySpawn {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols: number;
  readonly rows: number;
  /** TERM for the child; node-pty's default is the env's TERM, else `xterm`. */
  readonly name?: string | undefined;
}

export interface PtyEvents {
  bytes(chunk: Buffer): void;
  /** The child has died while reading was paused: its last output must be read soon (resume). */
  childGone(): void;
  /** The pty is closed and every byte it produced has been delivered through `bytes`. */
  closed(exit: PtyExit): void;
}

// While paused, how often to look whether the child has died: well inside node-pty's 200 ms.
const DEATH_WATCH_MS = 20;
// The end-of-stream drain reads what the kernel still holds; more than this means something kept
// writing after the hang-up, and is not the tail of the output.
const TAIL_DRAIN_LIMIT = 4 * 1024 * 1024;
const TAIL_READ_BYTES = 64 * 1024;

/**
 * UnixTerminal members that node-pty 1.1.0's IPty typings leave out: the master fd, the slave's
 * path, the stream events, and the write queue (lib/unixTerminal.js, CustomWriteStream) whose
 * length says whether a write is still pending. Each is checked before use; without the queue the
 * synchronous path is off and every write goes through node-pty as before.
 */
interface UnixTerminalInternals {
  readonly fd?: unknown;
  readonly ptsName?: unknown;
  on?(event: 'end' | 'close', listener: () => void): void;
  readonly _writeStream?: { readonly _writeQueue?: unknown };
}

export class Pty {
  readonly pid: number;
  /** The pty's slave device (e.g. /dev/pts/4), when node-pty exposes it. */
  readonly ptsName: string | undefined;
  private readonly pty: nodePty.IPty;
  /** The master fd and node-pty's write queue, when writes may skip the queue. */
  private readonly direct: { readonly fd: number; readonly queue: readonly unknown[] } | undefined;
  private fdOpen = true;
  private exited = false;
  private childDead = false;
  private deathWatch: NodeJS.Timeout | undefined;

  private constructor(
    spawn: PtySpawn,
    private events: PtyEvents | undefined,
  ) {
    this.pty = nodePty.spawn(spawn.file, [...spawn.args], {
      name: spawn.name,
      cwd: spawn.cwd,
      env: spawn.env,
      cols: spawn.cols,
      rows: spawn.rows,
      encoding: null,
    });
    this.pid = this.pty.pid;
    const unix = this.pty as nodePty.IPty & UnixTerminalInternals;
    this.ptsName = typeof unix.ptsName === 'string' ? unix.ptsName : undefined;
    const queue = unix._writeStream?._writeQueue;
    this.direct = typeof unix.fd === 'number' && Array.isArray(queue) ? { fd: unix.fd, queue } : undefined;
    // Declared as string by the typings; with `encoding: null` every chunk is a Buffer.
    this.pty.onData((chunk: string | Buffer) => this.deliver(chunk));
    if (typeof unix.fd === 'number' && unix.on !== undefined) {
      const fd = unix.fd;
      unix.on('end', () => this.drainTail(fd));
      unix.on('close', () => (this.fdOpen = false));
    }
    this.pty.onExit(({ exitCode, signal }) => this.closed(exitCode, signal));
  }

  static spawn(spawn: PtySpawn, events: PtyEvents): Pty {
    return new Pty(spawn, events);
  }

  /** Whether writes skip node-pty's thread-pool queue when the kernel takes them at once. */
  get synchronousWrites(): boolean {
    return this.direct !== undefined;
  }

  write(data: string | Uint8Array): void {
    if (this.exited || !this.fdOpen) return;
    // node-pty copies what it queues, so a view over the caller's bytes is enough here.
    const bytes =
      typeof data === 'string'
        ? Buffer.from(data, 'utf8')
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.byteLength === 0) return;
    const direct = this.direct;
    if (direct === undefined || direct.queue.length > 0) {
      this.pty.write(bytes);
      return;
    }
    let written: number;
    try {
      written = writeSync(direct.fd, bytes);
    } catch (error) {
      // EAGAIN: the kernel's buffer is full; node-pty's queue retries until it takes the bytes.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') this.pty.write(bytes);
      // Anything else (EIO) means the child's side is gone; its exit arrives through `closed`.
      return;
    }
    if (written < bytes.byteLength) this.pty.write(bytes.subarray(written));
  }

  resize(cols: number, rows: number): void {
    // node-pty throws (EBADF) on a pty that has closed but not yet reported the child's exit.
    if (!this.exited && this.fdOpen) this.pty.resize(cols, rows);
  }

  /** Signal the child (a name such as SIGHUP); nothing once it has died. */
  kill(signal: string): void {
    if (!this.exited && !this.childDead) this.pty.kill(signal);
  }

  /** Stop reading (backpressure); `childGone` says when the child dies meanwhile. */
  pause(): void {
    if (this.exited) return;
    this.pty.pause();
    this.deathWatch ??= setInterval(() => this.checkChild(), DEATH_WATCH_MS);
    this.deathWatch.unref();
  }

  resume(): void {
    this.stopDeathWatch();
    if (!this.exited) this.pty.resume();
  }

  /** Stop delivering events and end the child (SIGHUP, as a closed terminal would). */
  dispose(): void {
    this.events = undefined;
    this.stopDeathWatch();
    this.kill('SIGHUP');
    // Keep reading so node-pty's stream reaches its end and closes once the child is gone.
    if (!this.exited) this.pty.resume();
  }

  private deliver(chunk: string | Buffer): void {
    this.events?.bytes(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }

  private drainTail(fd: number): void {
    let drained = 0;
    while (drained < TAIL_DRAIN_LIMIT) {
      const buffer = Buffer.allocUnsafe(TAIL_READ_BYTES);
      let count: number;
      try {
        count = readSync(fd, buffer, 0, buffer.byteLength, null);
      } catch {
        return; // EIO once the kernel's buffer is empty (or EAGAIN): the tail is all read.
      }
      if (count === 0) return;
      drained += count;
      this.deliver(buffer.subarray(0, count));
    }
  }

  private checkChild(): void {
    if (isAlive(this.pid)) return;
    this.childDead = true;
    this.stopDeathWatch();
    this.events?.childGone();
  }

  private stopDeathWatch(): void {
    if (this.deathWatch !== undefined) clearInterval(this.deathWatch);
    this.deathWatch = undefined;
  }

  private closed(exitCode: number, signal: number | undefined): void {
    this.exited = true;
    this.childDead = true;
    this.fdOpen = false;
    this.stopDeathWatch();
    // node-pty reports signal 0 for a normal exit (and an exit code of 0 for a signal death).
    this.events?.closed(signal ? { code: null, signal } : { code: exitCode, signal: null });
  }
}
