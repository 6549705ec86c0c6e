/**
 * The child's output on its way to zor's stdout, from the first byte. Detection (the terminal
 * emulator, the rules, the process probe) is loaded only once the child has run a moment
 * (run-wrapper.ts), so until then the relay keeps what the parser will need: every chunk, with
 * where its plain run begins, handed over in order when detection attaches.
 *
 * Who writes stdout is the passthrough's business: zor itself (StdoutPassthrough, the node-pty
 * path), or the native relay, which has already written the bytes zor sees (NativePassthrough).
 */
import { EscapeBoundary } from './escape-boundary';
import { FdWriter } from './fd-writer';
import { OrderedOutput } from './ordered-output';
import type { PlainFlood } from './plain-flood';

/** The stdout zor writes the child's output to. */
const STDOUT_FD = 1;
/** Above this much output kept for a parser not attached yet, the child is paused. */
const WAITING_HIGH_WATER = 4 * 1024 * 1024;

export type PauseReason = 'stdout' | 'parser';

/** Where parsed output goes: the detection side (output-watcher.ts). */
export interface OutputParser {
  childOutput(chunk: Buffer, plainFrom: number): void;
}

/** How the child's output and zor's own bytes reach stdout. */
export interface Passthrough {
  /** Passes the chunk on (where that is this side's job); returns where its trailing plain run begins. */
  childOutput(chunk: Buffer): number;
  /** zor's own bytes (state OSCs, titles), between escape sequences. */
  inject(text: string): void;
  /** Resolves once everything so far has reached stdout (or stdout has gone away). */
  flush(): Promise<void>;
}

/**
 * zor writes stdout. Output can also be held back for a moment (`holdUntil`): until zor's
 * terminal has its output processing turned off, bytes written to it would not arrive as written.
 */
export class StdoutPassthrough implements Passthrough {
  private readonly stdout: FdWriter;
  private readonly output: OrderedOutput;
  /** Bytes for stdout held back until the terminal is ready, or undefined when not holding. */
  private held: Buffer[] | undefined;
  private holds = 0;

  constructor(pause: (reason: PauseReason, paused: boolean) => void) {
    this.stdout = new FdWriter(STDOUT_FD, (full) => pause('stdout', full));
    this.output = new OrderedOutput((bytes) => {
      if (this.held !== undefined) this.held.push(bytes);
      else this.stdout.write(bytes);
    });
  }

  /** Holds output back until `ready` settles (output, in order, then goes out). */
  holdUntil(ready: Promise<unknown>): void {
    this.held ??= [];
    this.holds++;
    void ready.finally(() => {
      if (--this.holds > 0) return;
      const held = this.held ?? [];
      this.held = undefined;
      for (const bytes of held) this.stdout.write(bytes);
    });
  }

  childOutput(chunk: Buffer): number {
    return this.output.childOutput(chunk);
  }

  inject(text: string): void {
    this.output.inject(text);
  }

  flush(): Promise<void> {
    return this.stdout.flush();
  }
}

/**
 * The native relay has written the bytes already and places zor's injections itself (at the same
 * boundaries, native/zor-relay.c); here only the plain runs are found, for the parser.
 */
export class NativePassthrough implements Passthrough {
  private readonly boundary = new EscapeBoundary();

  constructor(readonly inject: (text: string) => void) {}

  childOutput(chunk: Buffer): number {
    return this.boundary.feed(chunk);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }
}

export class OutputRelay {
  private parser: OutputParser | undefined;
  private waiting: [Buffer, number][] = [];
  private waitingBytes = 0;
  private flood: PlainFlood | undefined;

  constructor(
    private readonly passthrough: Passthrough,
    private readonly pause: (reason: PauseReason, paused: boolean) => void,
  ) {}

  childOutput(chunk: Buffer): void {
    const plainFrom = this.passthrough.childOutput(chunk);
    if (this.parser !== undefined) {
      this.parser.childOutput(chunk, plainFrom);
      return;
    }
    this.waiting.push([chunk, plainFrom]);
    this.waitingBytes += chunk.length;
    this.flood?.childOutput(chunk, plainFrom);
    if (this.waitingBytes > WAITING_HIGH_WATER) this.pause('parser', true);
  }

  /** zor's own bytes (state OSCs, titles), between escape sequences. */
  inject(text: string): void {
    this.passthrough.inject(text);
  }

  /** Until a parser attaches, shows `flood` every chunk kept for it. */
  watchFlood(flood: PlainFlood): void {
    this.flood = flood;
  }

  /** Output bytes kept for a parser not attached yet. */
  get kept(): number {
    return this.waitingBytes;
  }

  /** From now on output goes to `parser`, starting with what came before. */
  attach(parser: OutputParser): void {
    this.parser = parser;
    for (const [chunk, plainFrom] of this.waiting) parser.childOutput(chunk, plainFrom);
    this.waiting = [];
    this.waitingBytes = 0;
    this.flood = undefined;
  }

  /** Resolves once everything written so far has reached stdout (or stdout has gone away). */
  flush(): Promise<void> {
    return this.passthrough.flush();
  }
}
