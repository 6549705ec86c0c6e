/**
 * Feeds the child's output to the wrapper's @xterm/headless terminal off the output path. The
 * bytes have already gone to stdout; here they wait until the terminal has parsed what it was
 * given before, then go in as one write, so a flood is parsed in a few large writes rather than
 * one per read. Long runs of plain text are cut to what the screen and scrollback keep
 * (plain-run.ts), which is most of a bulk output such as `seq` or a build log without colours.
 *
 * A cut is decided only when everything before the run has been parsed, because it depends on
 * the terminal's state then (its scroll region and size); for the same reason a resize waits for
 * the write in progress.
 *
 * While plain text keeps coming, writes are at least a few milliseconds apart: each batch is then
 * larger, so more of it can be cut, and the detector sees the screen a few milliseconds later at
 * worst. Output after a quiet spell, and any output with escape sequences in it (a program
 * drawing its screen, whose every state the detector may need), is written at once.
 */
import type { Terminal } from '@xterm/headless';
import { performance } from 'node:perf_hooks';
import { lineFeedsToKeep, trimPlainRun } from './plain-run';

/** The least time from one write to the terminal to the next. */
const BATCH_INTERVAL_MS = 10;

interface Segment {
  bytes: Buffer[];
  /** Plain text read in the ground state (EscapeBoundary.feed). */
  readonly plain: boolean;
}

/** xterm internals, read to learn the scroll region; without them nothing is cut. */
interface TerminalInternals {
  readonly _core?: { readonly buffer?: { readonly scrollTop?: unknown; readonly scrollBottom?: unknown } };
}

export class ParseFeed {
  private segments: Segment[] = [];
  private writing = false;
  private lastWriteAt = -Infinity;
  private batchTimer: NodeJS.Timeout | undefined;
  private deferredResize: { cols: number; rows: number } | undefined;
  private disposed = false;
  /** Bytes received and not yet parsed (cut bytes count as parsed once the write holding the rest is). */
  private unparsedBytes = 0;
  /** Bytes received, and bytes actually parsed (for --debug). */
  received = 0;
  parsed = 0;

  /**
   * @param parsedSome called after each write has been parsed.
   */
  constructor(
    private readonly terminal: Terminal,
    private readonly parsedSome: () => void,
  ) {}

  get unparsed(): number {
    return this.unparsedBytes;
  }

  /** A chunk of output, with where its trailing plain run begins. */
  push(chunk: Buffer, plainFrom: number): void {
    this.unparsedBytes += chunk.length;
    this.received += chunk.length;
    if (plainFrom > 0) this.append(chunk.subarray(0, plainFrom), false);
    // A chunk whose first byte is plain continues the previous chunk's trailing run, if it had one.
    if (plainFrom < chunk.length) this.append(chunk.subarray(plainFrom), true);
    this.writeNext();
  }

  resize(cols: number, rows: number): void {
    if (this.writing) this.deferredResize = { cols, rows };
    else this.applyResize(cols, rows);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.batchTimer);
    this.segments = [];
  }

  private append(bytes: Buffer, plain: boolean): void {
    const last = this.segments.at(-1);
    if (last !== undefined && last.plain === plain) last.bytes.push(bytes);
    else this.segments.push({ bytes: [bytes], plain });
  }

  private applyResize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
    const scrollback = Math.max(scrollbackFor(rows), this.terminal.options.scrollback ?? 0);
    this.terminal.options.scrollback = scrollback;
  }

  /**
   * Writes what is waiting, up to the next plain run long enough to cut that follows other output
   * (its cut must wait until that output is parsed): a leading run, cut if the terminal allows,
   * then the rest.
   */
  private writeNext(): void {
    if (this.writing || this.disposed || this.segments.length === 0 || this.batchTimer !== undefined) return;
    // Only plain text waits: other output (a program drawing its screen) is parsed as it comes.
    const flood = this.segments.length === 1 && this.segments[0]!.plain;
    const wait = this.lastWriteAt + BATCH_INTERVAL_MS - performance.now();
    if (flood && wait > 0) {
      this.batchTimer = setTimeout(() => {
        this.batchTimer = undefined;
        this.writeNext();
      }, wait);
      return;
    }
    this.lastWriteAt = performance.now();
    const keep = this.keepLineFeeds();
    const parts: Buffer[] = [];
    let taken = 0;
    let index = 0;
    for (; index < this.segments.length; index++) {
      const segment = this.segments[index]!;
      const bytes = segment.bytes.length === 1 ? segment.bytes[0]! : Buffer.concat(segment.bytes);
      if (segment.plain && index === 0 && this.canCut()) {
        parts.push(trimPlainRun(bytes, keep));
      } else if (segment.plain && index > 0 && hasLineFeeds(bytes, keep)) {
        break;
      } else {
        parts.push(bytes);
      }
      taken += bytes.length;
    }
    this.segments = this.segments.slice(index);
    const data = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    this.writing = true;
    this.parsed += data.length;
    this.terminal.write(data, () => {
      this.writing = false;
      this.unparsedBytes -= taken;
      if (this.disposed) return;
      if (this.deferredResize !== undefined) {
        this.applyResize(this.deferredResize.cols, this.deferredResize.rows);
        this.deferredResize = undefined;
      }
      this.parsedSome();
      this.writeNext();
    });
  }

  private keepLineFeeds(): number {
    return lineFeedsToKeep(this.terminal.rows, this.terminal.options.scrollback ?? 0);
  }

  /** Whether the scroll region is the whole screen (plain-run.ts says why that matters). */
  private canCut(): boolean {
    const buffer = (this.terminal as Terminal & TerminalInternals)._core?.buffer;
    return buffer?.scrollTop === 0 && buffer.scrollBottom === this.terminal.rows - 1;
  }
}

/** Whether `bytes` holds at least `count` line feeds. */
function hasLineFeeds(bytes: Buffer, count: number): boolean {
  let position = -1;
  for (let found = 0; found < count; found++) {
    position = bytes.indexOf(0x0a, position + 1);
    if (position < 0) return false;
  }
  return true;
}

/** Scrollback for the detection window, which reaches into history by up to a screenful. */
export function scrollbackFor(rows: number): number {
  return Math.max(rows * 2, 100);
}
