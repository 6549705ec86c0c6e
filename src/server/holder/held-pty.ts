import { readSync, writeSync } from 'node:fs';
import * as net from 'node:net';
import { constants } from 'node:os';
import * as tty from 'node:tty';
import type { PtyEvents, PtyExit } from '../../pty/pty';
import { parseHolderHeader, type HolderHeader } from './header';
import type { PaneFdAddon } from './native';

// As src/pty/pty.ts: the end-of-stream drain reads what the kernel still holds, and no more.
const TAIL_DRAIN_LIMIT = 4 * 1024 * 1024;
const TAIL_READ_BYTES = 64 * 1024;

/**
 * A pane's pty whose master fd a holder (native/pane-holder.c) handed over: the same surface as
 * src/pty/pty.ts gives a pane, over the same output path (a tty.ReadStream on the master, as
 * node-pty reads it, and synchronous writes to the non-blocking master). What differs is who owns
 * the program: the holder starts it, reaps it and says how it ended (`exit CODE SIGNAL` on the
 * connection), and signals it on request, so the server can die without ending it.
 *
 * Reading waits until the bytes the holder buffered while no server held the pty (sent first on
 * the connection) have been delivered, so a pane taken back sees its output in order.
 */
export class HeldPty {
  readonly pid: number;
  readonly ptsName: string;
  /** The key the holder keeps: which pane of which workspace it is. */
  readonly key: string;
  /** Bytes the holder had to drop (oldest first) while no server held the pty. */
  readonly dropped: number;
  readonly synchronousWrites = true;
  private readonly reader: tty.ReadStream;
  private events: PtyEvents | undefined;
  /** Buffered output still to come on the connection before the master is read. */
  private bufferedLeft: number;
  private controlText = '';
  private queued: Buffer[] = [];
  private flushing = false;
  private fdOpen = true;
  private outputEnded = false;
  private exit: PtyExit | undefined;
  private closedSent = false;
  private paused = false;

  private constructor(
    header: HolderHeader,
    private readonly masterFd: number,
    private readonly control: net.Socket,
    private readonly addon: PaneFdAddon,
    events: PtyEvents,
  ) {
    this.events = events;
    this.pid = header.pid;
    this.ptsName = header.ptsName;
    this.key = header.key;
    this.dropped = header.dropped;
    this.bufferedLeft = header.buffered;
    this.exit = header.exit;
    this.reader = new tty.ReadStream(masterFd);
    this.reader.pause();
    this.reader.on('data', (chunk: Buffer) => this.events?.bytes(chunk));
    // EIO: every holder of the pty's slave side has closed it; the output has all been read.
    this.reader.on('error', () => this.outputEnd());
    this.reader.on('end', () => {
      this.drainTail();
      this.outputEnd();
    });
    this.reader.on('close', () => {
      this.fdOpen = false;
      this.outputEnd();
    });
    control.on('data', (chunk: Buffer) => this.controlData(chunk));
    control.on('error', () => undefined);
    // The holder died (killed): no exit status will come, and nothing holds the program now.
    control.on('close', () => this.exited(this.exit ?? { code: null, signal: null }));
    if (this.bufferedLeft === 0) this.startReading();
  }

  /** Take the pty of the holder listening on `socket`. Throws with what went wrong. */
  static take(socket: string, addon: PaneFdAddon, events: PtyEvents): HeldPty {
    const taken = addon.take(socket);
    if (typeof taken === 'string') throw new Error(`cannot take the pane held at ${socket}: ${taken}`);
    const [controlFd, masterFd, text] = taken;
    const header = parseHolderHeader(text);
    const control = new net.Socket({ fd: controlFd, readable: true, writable: true });
    if (typeof header === 'string') {
      control.destroy();
      new tty.ReadStream(masterFd).destroy();
      throw new Error(`cannot take the pane held at ${socket}: ${header}`);
    }
    return new HeldPty(header, masterFd, control, addon, events);
  }

  write(data: string | Uint8Array): void {
    if (this.exit !== undefined || !this.fdOpen) return;
    const bytes =
      typeof data === 'string'
        ? Buffer.from(data, 'utf8')
        : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.byteLength === 0) return;
    // Bytes already waiting go first, so the program reads them in the order they were written.
    if (this.queued.length > 0) {
      this.queued.push(Buffer.from(bytes));
      return;
    }
    const rest = this.writeNow(bytes);
    if (rest !== undefined) this.queue(Buffer.from(rest));
  }

  resize(cols: number, rows: number): void {
    if (this.exit === undefined && this.fdOpen) this.addon.setSize(this.masterFd, cols, rows);
  }

  /** Ask the program to draw its screen again: two size changes, each a SIGWINCH from the kernel. */
  redraw(cols: number, rows: number): void {
    this.resize(cols, rows > 1 ? rows - 1 : rows + 1);
    this.resize(cols, rows);
  }

  /** Signal the program (a name such as SIGHUP), through its holder; nothing once it has exited. */
  kill(signal: string): void {
    const number = constants.signals[signal as NodeJS.Signals];
    if (this.exit === undefined && number !== undefined && !this.control.destroyed)
      this.control.write(`kill ${number}\n`);
  }

  pause(): void {
    this.paused = true;
    this.reader.pause();
  }

  resume(): void {
    this.paused = false;
    if (this.bufferedLeft === 0) this.reader.resume();
  }

  /**
   * Stop delivering events and end the pane: the holder hangs it up (SIGHUP) and exits once the
   * program has, and this side's master closes, so the kernel hangs up the terminal too.
   */
  dispose(): void {
    this.events = undefined;
    if (!this.control.destroyed) this.control.end('end\n');
    this.reader.destroy();
  }

  private startReading(): void {
    if (!this.paused) this.reader.resume();
  }

  private controlData(chunk: Buffer): void {
    let rest = chunk;
    if (this.bufferedLeft > 0) {
      const output = rest.subarray(0, this.bufferedLeft);
      this.bufferedLeft -= output.byteLength;
      rest = rest.subarray(output.byteLength);
      this.events?.bytes(output);
      if (this.bufferedLeft === 0) this.startReading();
    }
    this.controlText += rest.toString('latin1');
    let newline: number;
    while ((newline = this.controlText.indexOf('\n')) >= 0) {
      const line = this.controlText.slice(0, newline);
      this.controlText = this.controlText.slice(newline + 1);
      const exit = /^exit (-?\d+) (\d+)$/.exec(line);
      if (exit) this.exited(exitOf(Number(exit[1]), Number(exit[2])));
    }
  }

  private exited(exit: PtyExit): void {
    if (this.exit !== undefined && this.closedSent) return;
    this.exit ??= exit;
    // While paused the pane must read on to the end to see the last output: tell it, as Pty does.
    if (this.paused && !this.outputEnded) this.events?.childGone();
    this.finish();
  }

  private outputEnd(): void {
    this.outputEnded = true;
    this.finish();
  }

  private finish(): void {
    if (!this.outputEnded || this.exit === undefined || this.closedSent) return;
    this.closedSent = true;
    // The status is collected: the holder may go.
    if (!this.control.destroyed) this.control.end();
    this.events?.closed(this.exit);
  }

  private drainTail(): void {
    let drained = 0;
    while (drained < TAIL_DRAIN_LIMIT && this.fdOpen) {
      const buffer = Buffer.allocUnsafe(TAIL_READ_BYTES);
      let count: number;
      try {
        count = readSync(this.masterFd, buffer, 0, buffer.byteLength, null);
      } catch {
        return; // EIO once the kernel's buffer is empty (or EAGAIN): the tail is all read.
      }
      if (count === 0) return;
      drained += count;
      this.events?.bytes(buffer.subarray(0, count));
    }
  }

  /** Write what the kernel takes now; the rest (EAGAIN, a partial write), if any. */
  private writeNow(bytes: Buffer): Buffer | undefined {
    try {
      const written = writeSync(this.masterFd, bytes);
      return written < bytes.byteLength ? bytes.subarray(written) : undefined;
    } catch (error) {
      // Anything but a full buffer (EIO) means the program's side is gone; its exit comes from the holder.
      return (error as NodeJS.ErrnoException).code === 'EAGAIN' ? bytes : undefined;
    }
  }

  private queue(bytes: Buffer): void {
    this.queued.push(bytes);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => this.flush());
  }

  /** Retry the waiting bytes each turn until the program has read enough for them to fit. */
  private flush(): void {
    this.flushing = false;
    while (this.queued.length > 0 && this.exit === undefined && this.fdOpen) {
      const rest = this.writeNow(this.queued[0]!);
      if (rest !== undefined) {
        this.queued[0] = rest;
        this.flushing = true;
        setImmediate(() => this.flush());
        return;
      }
      this.queued.shift();
    }
    this.queued = [];
  }
}

/** The holder's `exit CODE SIGNAL`: CODE is -1 for a death by SIGNAL. */
function exitOf(code: number, signal: number): PtyExit {
  return signal > 0 ? { code: null, signal } : { code, signal: null };
}
