// A named import: this package compiles to CommonJS, where require() hands over the module's
// exports as they are (a default import suits ESM loading of this CJS package, not ours).
import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { captureTerminal, type CaptureOptions, type CaptureResult } from './capture';
import { foregroundCwd } from './foreground-cwd';
import { InputModes } from './input-modes';
import { OutputPump, type FlowMarks } from './output-pump';
import { paneParseScheduler } from './parse-scheduler';
import { assertRunnable } from './program-lookup';
import {
  startPtyProcess,
  takeHeldPty,
  type PaneExit,
  type PaneHolding,
  type PaneProcess,
} from './pty-process';
import { Scrollback } from './scrollback';
import { sanitizeTitle } from './title';
import { TypedEmitter } from './typed-emitter';
import { TERMINAL_ENV } from '../../protocol/env';

export interface PaneSpawn {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Lines of history kept above the viewport (most of them compacted out of the terminal). */
  scrollback: number;
  /** Text the terminal shows before the program's first output (a restored pane's saved history). */
  preface?: string;
  /** Run the program under a holder there, so it outlives the server (when the holder is built). */
  holding?: PaneHolding;
  /**
   * Take back the program a surviving holder listening on this socket kept running, instead of
   * starting `argv`: its buffered output follows `preface`, then the program is asked to redraw.
   */
  adopt?: string;
}

export interface PaneEvents {
  /**
   * Output is here for subscribers to look at: anything they ask in return is answered on a later
   * turn, with it parsed. Once per write to the parser, before a small one (see `parse`), after a
   * large one. Frequent during a flood: consumers rate-cap it.
   */
  nudge: [];
  /** Some output was parsed into the terminal. Frequent during a flood: consumers rate-cap it. */
  output: [];
  title: [title: string];
  bell: [];
  /** The process is gone and all of its output has been parsed. */
  exit: [exit: PaneExit];
}

/**
 * Flow-control marks for unparsed output. A pane alone is paced by the kernel (~4 KiB per read, one
 * read per event-loop turn) and parses each read in the turn it arrives, so these are not reached.
 * Many flooding panes take turns at the parser (ParseScheduler) and queue their reads meanwhile:
 * past 128 KiB the pty is paused, so the program blocks in the kernel (as under tmux) rather
 * than the server holding its output (40 panes: 5 MiB at most, where 1 MiB a pane would be 40),
 * and stops competing for the CPU. Resumed below 64 KiB, several times what a pane parses in a
 * turn, so it does not run dry while the pty refills.
 */
const FLOW_MARKS: FlowMarks = { high: 128 * 1024, low: 64 * 1024 };
/**
 * Once the process is dead the pty must be read to its end within node-pty's 200 ms, or the tail
 * is lost; what is left is the kernel's buffer, unless an orphaned grandchild keeps writing, which
 * this cap still bounds.
 */
const FLOW_MARKS_AFTER_EXIT: FlowMarks = { high: 16 * 1024 * 1024, low: 8 * 1024 * 1024 };
/**
 * Writes up to this size nudge their subscribers before they are parsed: an echo, a prompt, a
 * spinner's redraw. Such a write is one chunk to xterm, which parses a lone chunk to its end in the
 * call (the pump has one write in flight, so xterm's buffer is empty), so no request can come
 * between the nudge and the parse. A larger write may be cut by xterm's time limit and finished on
 * a timer, so it nudges after.
 */
const NUDGE_FIRST_BYTES = 1024;

/**
 * A pane: a program on a pty, and the headless terminal its output is parsed into (the one the
 * detector reads too). Title, bell and exit status are tracked; terminal replies (cursor reports,
 * device attributes) go back to the program as a real terminal's would.
 */
export class Pane extends TypedEmitter<PaneEvents> {
  readonly pid: number;
  readonly argv: string[];
  readonly cwd: string;
  readonly terminal: Terminal;
  /** Modes xterm does not expose (cursor shape and visibility, SGR mouse, kitty keys), for attached clients. */
  readonly modes: InputModes;
  /** The last OSC 0/2 title, without control characters, at most 256 characters. */
  title = '';
  bellCount = 0;
  /** Set once the process has exited and its output is parsed (when `exit` is emitted). */
  exit: PaneExit | undefined;
  /** When input last reached the program (ms since the epoch; 0: never), for `wait` to know what came after. */
  lastInputAt = 0;

  private readonly pty: PaneProcess;
  private readonly pump: OutputPump;
  private readonly history: Scrollback;
  private closedWith: PaneExit | undefined;
  private disposed = false;

  /** Start `argv` on a new pty. Throws if the program or the directory cannot be used. */
  static spawn(opts: PaneSpawn): Pane {
    return new Pane(opts);
  }

  private constructor(opts: PaneSpawn) {
    super();
    assertRunnable(opts.argv, opts.cwd, opts.env);
    this.argv = [...opts.argv];
    this.cwd = opts.cwd;
    this.terminal = createTerminal(opts);
    this.modes = new InputModes(this.terminal);
    this.history = new Scrollback(this.terminal, opts.scrollback);
    this.pump = new OutputPump(
      (bytes, parsed) => this.parse(bytes, parsed),
      { pause: () => this.pty.pause(), resume: () => this.pty.resume() },
      FLOW_MARKS,
      () => this.parsed(),
      paneParseScheduler,
    );
    const [file, ...args] = this.argv;
    // Until the constructor returns, output (a holder's buffer comes at once) waits behind the preface.
    const early: Buffer[] = [];
    let started = false;
    const listeners = {
      bytes: (chunk: Buffer) => (started ? this.pump.push(chunk) : early.push(chunk)),
      childGone: () => this.pump.setMarks(FLOW_MARKS_AFTER_EXIT),
      closed: (exit: PaneExit) => this.closed(exit),
    };
    try {
      if (opts.adopt !== undefined) {
        const held = takeHeldPty(opts.adopt, listeners);
        held.redraw(opts.cols, opts.rows);
        this.pty = held;
      } else {
        this.pty = startPtyProcess(
          {
            file: file!,
            args,
            cwd: opts.cwd,
            // The program talks to xterm.js, whatever terminal the caller sits in.
            env: { ...opts.env, ...TERMINAL_ENV },
            cols: opts.cols,
            rows: opts.rows,
          },
          listeners,
          opts.holding,
        );
      }
    } catch (err) {
      this.terminal.dispose();
      throw new Error(`cannot run '${file}': ${(err as Error).message}`, { cause: err });
    }
    this.pid = this.pty.pid;
    if (opts.preface) this.pump.push(Buffer.from(opts.preface, 'utf8'));
    started = true;
    for (const chunk of early) this.pump.push(chunk);
    // The scrollback's empty inputs (which make xterm parse at once) come back as empty data.
    this.terminal.onData((reply) => {
      if (reply !== '') this.pty.write(reply);
    });
    this.terminal.onTitleChange((raw) => this.titleChanged(raw));
    this.terminal.onBell(() => this.rang());
  }

  /**
   * Send input to the program. A string goes through the terminal as typed input, which lets
   * xterm parse the echo synchronously when it arrives instead of on its next timer tick.
   */
  write(data: string | Buffer): void {
    if (this.exit !== undefined || this.disposed) return;
    this.lastInputAt = Date.now();
    this.pump.inputWritten();
    if (typeof data === 'string') this.terminal.input(data, true);
    else this.pty.write(data);
  }

  /** Resize the pty and the terminal together; a resize to the current size does nothing. */
  resize(cols: number, rows: number): void {
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) {
      throw new RangeError(`cannot resize a pane to ${cols}x${rows}`);
    }
    if (this.disposed || (cols === this.terminal.cols && rows === this.terminal.rows)) return;
    // The pty first: the program redraws for the new size, and that output lands on a terminal
    // already that size.
    this.pty.resize(cols, rows);
    this.history.beforeResize();
    this.terminal.resize(cols, rows);
    this.history.afterResize();
  }

  capture(opts: CaptureOptions): CaptureResult {
    return captureTerminal(this.terminal, opts, this.history.history());
  }

  /** Rows of history the pane keeps above its normal screen (at most its `scrollback`). */
  historyLines(): number {
    return this.history.rows();
  }

  /** Signal the program; SIGHUP by default, as when a terminal is closed. Nothing once it has exited. */
  kill(signal = 'SIGHUP'): void {
    this.pty.kill(signal);
  }

  /** Where the foreground program is working now (Linux /proc), else the directory it started in. */
  currentCwd(): string {
    return (this.exit === undefined ? foregroundCwd(this.pid) : undefined) ?? this.cwd;
  }

  /** Stop all events, hang up the program if it still runs, and free the terminal. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.removeAllListeners();
    this.pump.dispose();
    this.pty.dispose();
    this.history.dispose();
    this.modes.dispose();
    this.terminal.dispose();
  }

  /**
   * Parse a write from the pump. A keystroke's echo is the one write whose latency someone waits
   * on, and a subscriber (B2's `pane.output`) needs no parse to be told of it: its nudge leaves
   * first, and the ~50 µs of parsing happen while it is on its way.
   */
  private parse(bytes: Uint8Array, parsed: () => void): void {
    if (bytes.byteLength <= NUDGE_FIRST_BYTES) {
      this.emit('nudge');
      this.history.write(bytes, parsed);
      return;
    }
    this.history.write(bytes, () => {
      if (!this.disposed) this.emit('nudge');
      parsed();
    });
  }

  private parsed(): void {
    if (this.disposed) return;
    this.emit('output');
    this.finishExitWhenParsed();
  }

  private closed(exit: PaneExit): void {
    this.closedWith = exit;
    this.finishExitWhenParsed();
  }

  private finishExitWhenParsed(): void {
    if (this.closedWith === undefined || this.exit !== undefined || !this.pump.idle || this.disposed) return;
    this.exit = this.closedWith;
    this.emit('exit', this.exit);
  }

  private titleChanged(raw: string): void {
    const title = sanitizeTitle(raw);
    if (title === this.title) return;
    this.title = title;
    this.emit('title', title);
  }

  private rang(): void {
    this.bellCount++;
    this.emit('bell');
  }
}

function createTerminal(opts: PaneSpawn): Terminal {
  const terminal = new Terminal({
    cols: opts.cols,
    rows: opts.rows,
    scrollback: Scrollback.terminalLimit(opts.scrollback),
    // The unicode API that the width addon drives is a proposed API.
    allowProposedApi: true,
    // xterm logs every malformed sequence to the console; a pane printing binary would flood the
    // server's log and spend its time there (measured: 3 MB of /dev/urandom took 4 s instead of 0.4).
    logLevel: 'off',
  });
  terminal.loadAddon(new Unicode11Addon());
  // Without this, xterm measures emoji and many CJK glyphs as one cell wide.
  terminal.unicode.activeVersion = '11';
  return terminal;
}
