/**
 * The wrapped command on its pty: the pty module shared with fux's panes (src/pty/pty.ts, which
 * says how it keeps the tail of the output and writes keys without a thread-pool hop), shaped for
 * the wrapper: output can be collected before its reader exists, the exit is a promise, and
 * reading resumes by itself when the child dies while paused, since the remaining tail is at most
 * what the kernel buffers and fits in memory whatever stdout's state.
 */
import { Pty, type PtyExit } from '../../pty/pty';

export class ChildPty {
  private readonly pty: Pty;
  private paused = false;
  /** Output that arrived before `onOutput` was called, in order. */
  private early: Buffer[] | undefined = [];
  private listener: ((chunk: Buffer) => void) | undefined;
  readonly exited: Promise<PtyExit>;

  constructor(
    file: string,
    args: readonly string[],
    options: { cols: number; rows: number; cwd: string; env: NodeJS.ProcessEnv },
  ) {
    let exited: (exit: PtyExit) => void = () => {};
    this.exited = new Promise((resolve) => (exited = resolve));
    this.pty = Pty.spawn(
      { file, args, ...options },
      {
        bytes: (chunk) => this.output(chunk),
        childGone: () => this.resume(),
        closed: (exit) => exited(exit),
      },
    );
  }

  /** Where the child's output goes; anything that came before is delivered first. */
  onOutput(listener: (chunk: Buffer) => void): void {
    this.listener = listener;
    for (const chunk of this.early ?? []) listener(chunk);
    this.early = undefined;
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** The pty's slave device, e.g. /dev/pts/4, when node-pty exposes it. */
  get ptyPath(): string | undefined {
    return this.pty.ptsName;
  }

  write(data: Buffer | string): void {
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  kill(signal: NodeJS.Signals): void {
    this.pty.kill(signal);
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.pty.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.pty.resume();
  }

  private output(chunk: Buffer): void {
    if (this.listener !== undefined) this.listener(chunk);
    else this.early?.push(chunk);
  }
}
