import { readSync } from 'node:fs';
import * as nodePty from 'node-pty';

/** How a pane's process ended: an exit code, or the number of the signal that killed it. */
export interface PaneExit {
  code: number | null;
  signal: number | null;
}

export interface PtyLaunch {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyListeners {
  bytes(chunk: Uint8Array): void;
  /** The process has died (noticed while reading was paused): its last output must be read soon. */
  childGone(): void;
  /** The pty is closed and every byte it produced has been delivered through `bytes`. */
  closed(exit: PaneExit): void;
}

// While paused, how often to look whether the child has died (see PtyProcess.pause).
const DEATH_WATCH_MS = 20;
// The end-of-stream drain reads what the kernel still holds; more than this means something kept
// writing after the hang-up, and is not the tail of the output.
const TAIL_DRAIN_LIMIT = 4 * 1024 * 1024;
const TAIL_READ_BYTES = 64 * 1024;

/** UnixTerminal members that node-pty's IPty typings leave out (see drainTail). */
interface UnixPtyInternals {
  readonly fd: number;
  on(event: 'end', listener: () => void): void;
}

/**
 * A node-pty child as a byte source, made safe against node-pty's two ways of losing the tail of a
 * process's output:
 *
 * - libuv ends a stream when the fd reports a hang-up after a short read, but a pty master always
 *   reads short (≤ 4 KiB), so it can declare end-of-file while the kernel still holds output
 *   (measured: a bare reader lost the last 5–8 KB of `seq 1 300000` in 1 run of 3, a pane in 5 of
 *   5). On that end event the fd is still open, and reading it until EIO recovers the rest.
 * - After the child exits, node-pty destroys the stream if it has not closed within 200 ms, which it
 *   cannot while reading is paused. So while paused, the child's liveness is checked and the owner
 *   told when it is gone, to resume.
 *
 * One gap remains: a pause only stops reads once Node's stream buffer (16 KiB) is full, and if the
 * kernel reports EIO while that buffer holds data, Node discards it. That needs the child to exit
 * within the few reads after a pause, which only a flood can bring about.
 *
 * Bytes are delivered raw (`encoding: null`): the terminal decodes UTF-8 itself, across chunks.
 */
export class PtyProcess {
  readonly pid: number;
  private readonly pty: nodePty.IPty;
  private exited = false;
  private childDead = false;
  private deathWatch: NodeJS.Timeout | undefined;

  private constructor(
    launch: PtyLaunch,
    private listeners: PtyListeners | undefined,
  ) {
    this.pty = nodePty.spawn(launch.file, launch.args, {
      name: launch.env.TERM ?? 'xterm-256color',
      cwd: launch.cwd,
      env: launch.env,
      cols: launch.cols,
      rows: launch.rows,
      encoding: null,
    });
    this.pid = this.pty.pid;
    // Declared as string by the typings; with `encoding: null` every chunk is a Buffer.
    this.pty.onData((chunk: string | Uint8Array) => this.deliver(chunk));
    this.drainTailOnEnd();
    this.pty.onExit(({ exitCode, signal }) => this.closed(exitCode, signal));
  }

  static spawn(launch: PtyLaunch, listeners: PtyListeners): PtyProcess {
    return new PtyProcess(launch, listeners);
  }

  write(data: string | Buffer): void {
    if (!this.exited) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exited) this.pty.resize(cols, rows);
  }

  kill(signal: string): void {
    // Once the child is reaped its pid may belong to someone else.
    if (!this.exited && !this.childDead) this.pty.kill(signal);
  }

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

  /** Stop delivering events and end the process (SIGHUP, as a closed terminal would). */
  dispose(): void {
    this.listeners = undefined;
    this.stopDeathWatch();
    this.kill('SIGHUP');
    // Keep reading so node-pty's stream reaches its end and closes once the child is gone.
    if (!this.exited) this.pty.resume();
  }

  private deliver(chunk: string | Uint8Array): void {
    this.listeners?.bytes(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }

  private drainTailOnEnd(): void {
    const unix = this.pty as nodePty.IPty & Partial<UnixPtyInternals>;
    if (typeof unix.fd !== 'number' || typeof unix.on !== 'function') return;
    const fd = unix.fd;
    unix.on('end', () => {
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
    });
  }

  private checkChild(): void {
    if (isAlive(this.pid)) return;
    this.childDead = true;
    this.stopDeathWatch();
    this.listeners?.childGone();
  }

  private stopDeathWatch(): void {
    if (this.deathWatch !== undefined) clearInterval(this.deathWatch);
    this.deathWatch = undefined;
  }

  private closed(exitCode: number, signal: number | undefined): void {
    this.exited = true;
    this.childDead = true;
    this.stopDeathWatch();
    // node-pty reports signal 0 for a normal exit (and an exit code of 0 for a signal death).
    const exit: PaneExit = signal ? { code: null, signal } : { code: exitCode, signal: null };
    this.listeners?.closed(exit);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is not ours to signal, which still means alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
