/**
 * The wrapped command run by the native relay (native/zor-relay.c, which says what each descriptor
 * carries): the relay owns the pty and writes the child's output to zor's stdout itself, so a flood
 * never passes through Node; zor gets a copy of the bytes on a pipe, read in 64 KiB chunks rather
 * than node-pty's 4 KiB, for detection off the output path. zor's own bytes (state OSCs, titles)
 * go to the relay, which writes them where the stream sits between escape sequences. The copy
 * leaves out the start of long runs of plain text, which the parser would scroll away unseen
 * (plain-run.ts; the relay cuts as the parse feed would), so a flood costs zor little.
 *
 * The build compiles the relay (scripts/build-native.js, also the package's postinstall); where it
 * is missing or cannot run, `start` says so and the wrapper relays through node-pty as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { findNativeBuild } from '../../native-build';
import type { PtyExit } from '../../pty/pty';
import type { WindowSize } from './window-size';

/**
 * The relay binary, or undefined. `ZOR_RELAY` names one (empty: none, relay through node-pty);
 * otherwise it is looked up from this module's folder and from the script node runs (a bundle
 * under node_modules/.cache, whose real path may be another checkout's), up to the package root.
 */
export function findRelay(env: NodeJS.ProcessEnv): string | undefined {
  const named = env.ZOR_RELAY;
  if (named !== undefined) return named === '' ? undefined : named;
  return findNativeBuild('zor-relay', [__dirname, dirname(process.argv[1] ?? __dirname)]);
}

export interface NativeStart {
  readonly relay: string;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** zor's terminal (0 or 1), for the size and, with `rawOutput`, the output mode; or none. */
  readonly terminalFd: 0 | 1 | undefined;
  readonly rawOutput: boolean;
  /** The child's size when there is no terminal. */
  readonly size: WindowSize;
}

function parseSize(fields: readonly string[]): WindowSize {
  const [rows, cols, xpixel, ypixel] = fields.map(Number) as [number, number, number, number];
  return { rows, cols, xpixel, ypixel };
}

export class NativeChild {
  private listener: ((chunk: Buffer) => void) | undefined;
  private early: Buffer[] | undefined = [];
  private readonly sizeReplies: ((size: WindowSize) => void)[] = [];
  private exit: PtyExit | undefined;
  private copyEnded = false;
  private ended: (exit: PtyExit) => void = () => {};
  private started: (ok: boolean) => void = () => {};
  private readonly control: Writable;
  private readonly copy: Readable;
  private readonly closed: Promise<void>;
  readonly exited: Promise<PtyExit>;
  pid = 0;
  size: WindowSize;
  /** Bytes the relay left out of the copy: the start of plain runs the parser would scroll away unseen. */
  leftOut = 0;

  /** Listens to everything at once: a child that exits at once may end the copy before `start` is read. */
  private constructor(relay: ChildProcess, fallbackSize: WindowSize) {
    this.size = fallbackSize;
    const [control, , , copy, status] = relay.stdio as [Writable, null, null, Readable, Readable];
    this.control = control;
    this.copy = copy;
    this.exited = new Promise((resolve) => (this.ended = resolve));
    this.closed = new Promise((resolve) => relay.once('close', () => resolve()));
    copy.on('data', (chunk: Buffer) => this.output(chunk));
    copy.once('end', () => {
      this.copyEnded = true;
      this.settle();
    });
    let pending = '';
    status.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        this.statusLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
    });
    control.on('error', () => undefined);
    // The relay could not run (spawn failed) or ended without reporting an exit (killed).
    relay.once('error', () => this.started(false));
    relay.once('close', (code, signal) => {
      this.started(false);
      this.exit ??= { code: code ?? 1, signal: signal === null ? null : (constants.signals[signal] ?? null) };
      this.copyEnded = true;
      this.settle();
    });
  }

  /** Starts the relay and the child; undefined when the relay cannot run (then use node-pty). */
  static async start(start: NativeStart): Promise<NativeChild | undefined> {
    const args = [
      ...(start.rawOutput ? ['-r'] : []),
      ...['-s', String(start.size.rows), String(start.size.cols)],
      '--',
      start.file,
      ...start.args,
    ];
    let relay: ChildProcess;
    try {
      relay = spawn(start.relay, args, {
        env: start.env,
        stdio: ['pipe', 'inherit', 'inherit', 'pipe', 'pipe', start.terminalFd ?? 'ignore'],
      });
    } catch {
      return undefined;
    }
    const child = new NativeChild(relay, start.size);
    const ok = await new Promise<boolean>((resolve) => (child.started = resolve));
    return ok ? child : undefined;
  }

  /** Where the copy of the child's output goes; anything that came before is delivered first. */
  onOutput(listener: (chunk: Buffer) => void): void {
    this.listener = listener;
    for (const chunk of this.early ?? []) listener(chunk);
    this.early = undefined;
  }

  write(data: Buffer | string): void {
    this.send('i', typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  /** zor's own bytes, written by the relay between escape sequences. */
  inject(text: string): void {
    this.send('j', Buffer.from(text, 'utf8'));
  }

  kill(signal: NodeJS.Signals): void {
    const payload = Buffer.alloc(4);
    payload.writeUInt32LE(constants.signals[signal]);
    this.send('k', payload);
  }

  /** Copies the terminal's size (with pixels) to the child; resolves with it. */
  copySize(): Promise<WindowSize> {
    return new Promise((resolve) => {
      this.sizeReplies.push(resolve);
      this.send('w', Buffer.alloc(0));
    });
  }

  /** Output processing off again on the terminal (after a stop, the shell may have reset it). */
  rawOutput(): void {
    this.send('o', Buffer.alloc(0));
  }

  /** Stop (and restart) taking the copy: the relay then stops reading the child. */
  pause(): void {
    this.copy.pause();
  }

  resume(): void {
    this.copy.resume();
  }

  /** After the child's exit and zor's last injections: lets the relay end, and waits for it. */
  close(): Promise<void> {
    this.control.end();
    return this.closed;
  }

  private send(type: string, payload: Buffer): void {
    if (!this.control.writable) return;
    const header = Buffer.alloc(5);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(payload.byteLength, 1);
    this.control.write(payload.byteLength > 0 ? Buffer.concat([header, payload]) : header);
  }

  private statusLine(line: string): void {
    const [word, ...fields] = line.split(' ');
    if (word === 'start') {
      const [pid, ...size] = fields;
      this.pid = Number(pid);
      this.size = parseSize(size);
      this.started(true);
    } else if (word === 'size') {
      this.sizeReplies.shift()?.(parseSize(fields));
    } else if (word === 'cut') {
      this.leftOut = Number(fields[0]);
    } else if (word === 'exit') {
      const [code, signal] = fields.map(Number) as [number, number];
      this.exit = code < 0 ? { code: null, signal } : { code, signal: null };
      this.settle();
    }
  }

  private output(chunk: Buffer): void {
    if (this.listener !== undefined) this.listener(chunk);
    else this.early?.push(chunk);
  }

  /** The child has exited once its status is known and every byte of the copy delivered. */
  private settle(): void {
    if (this.exit !== undefined && this.copyEnded) {
      this.ended(this.exit);
      for (const reply of this.sizeReplies.splice(0)) reply(this.size);
    }
  }
}
