/**
 * The wrapped command on a node-pty pty, with the two ways node-pty can lose the end of a child's
 * output closed off (DESIGN.md §11):
 *
 * - libuv may report end-of-file on the master while the kernel still holds output (a pty read is
 *   always short, which libuv takes for a drained descriptor after a hang-up). On that `end` the
 *   descriptor is still open, so it is read to EIO here and the rest delivered.
 * - Once the child exits, node-pty destroys the stream if it has not closed within 200 ms, which it
 *   cannot while zor has paused reading (its stdout backed up). So while paused zor checks whether
 *   the child is still alive and resumes reading as soon as it is not; the remaining tail is at most
 *   what the kernel buffers, so it fits in memory whatever stdout's state.
 */
import * as pty from 'node-pty';
import { readSync } from 'node:fs';

/** How often a paused reader checks for a dead child: well inside node-pty's 200 ms. */
const DEATH_CHECK_MS = 20;
/** More than this after end-of-file is not a tail but a writer that ignored the hang-up. */
const TAIL_LIMIT = 4 * 1024 * 1024;
const TAIL_READ = 64 * 1024;

export interface ChildExitStatus {
  readonly exitCode: number;
  /** The signal number that killed the child, 0 or undefined when it exited. */
  readonly signal?: number | undefined;
}

/** UnixTerminal members the IPty typings leave out: the master descriptor, the slave path, stream events. */
interface UnixTerminalExtras {
  readonly fd?: unknown;
  readonly ptsName?: unknown;
  on?(event: 'end', listener: () => void): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class ChildPty {
  private readonly terminal: pty.IPty;
  private deathCheck: NodeJS.Timeout | undefined;
  private paused = false;
  /** Output that arrived before `onOutput` was called, in order. */
  private early: Buffer[] | undefined = [];
  private listener: ((chunk: Buffer) => void) | undefined;
  readonly exited: Promise<ChildExitStatus>;

  constructor(
    file: string,
    args: readonly string[],
    options: { cols: number; rows: number; cwd: string; env: NodeJS.ProcessEnv },
  ) {
    this.terminal = pty.spawn(file, [...args], { ...options, encoding: null });
    // With `encoding: null` node-pty delivers Buffers; its typings say string.
    this.terminal.onData((data: string | Buffer) =>
      this.output(typeof data === 'string' ? Buffer.from(data) : data),
    );
    this.readTailOnEnd();
    this.exited = new Promise((resolve) =>
      this.terminal.onExit((status) => {
        this.stopDeathCheck();
        resolve(status);
      }),
    );
  }

  /** Where the child's output goes; anything that came before is delivered first. */
  onOutput(listener: (chunk: Buffer) => void): void {
    this.listener = listener;
    for (const chunk of this.early ?? []) listener(chunk);
    this.early = undefined;
  }

  get pid(): number {
    return this.terminal.pid;
  }

  /** The pty's slave device, e.g. /dev/pts/4, when node-pty exposes it. */
  get ptyPath(): string | undefined {
    const path = (this.terminal as pty.IPty & UnixTerminalExtras).ptsName;
    return typeof path === 'string' ? path : undefined;
  }

  write(data: Buffer | string): void {
    this.terminal.write(data);
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  kill(signal: NodeJS.Signals): void {
    this.terminal.kill(signal);
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.terminal.pause();
    this.deathCheck = setInterval(() => {
      if (!isAlive(this.pid)) this.resume();
    }, DEATH_CHECK_MS);
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.stopDeathCheck();
    this.terminal.resume();
  }

  private output(chunk: Buffer): void {
    if (this.listener !== undefined) this.listener(chunk);
    else this.early?.push(chunk);
  }

  private stopDeathCheck(): void {
    clearInterval(this.deathCheck);
    this.deathCheck = undefined;
  }

  private readTailOnEnd(): void {
    const unix = this.terminal as pty.IPty & UnixTerminalExtras;
    const fd = unix.fd;
    if (typeof fd !== 'number' || unix.on === undefined) return;
    unix.on('end', () => {
      let read = 0;
      while (read < TAIL_LIMIT) {
        const buffer = Buffer.allocUnsafe(TAIL_READ);
        let count: number;
        try {
          count = readSync(fd, buffer, 0, TAIL_READ, null);
        } catch {
          return; // EIO (the slave is closed and drained) or EAGAIN: the tail is all read.
        }
        if (count === 0) return;
        read += count;
        this.output(buffer.subarray(0, count));
      }
    });
  }
}
