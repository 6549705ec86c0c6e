import type { ParseScheduler, ParseTask } from './parse-scheduler';

/** Pending-byte thresholds: pause the source above `high`, resume it once parsing brings it under `low`. */
export interface FlowMarks {
  high: number;
  low: number;
}

/** The producer side: something that can stop and restart delivering bytes (the pty). */
export interface FlowSource {
  pause(): void;
  resume(): void;
}

/** Hand `bytes` to the parser; call `parsed` once all of them have been parsed (possibly synchronously). */
export type ParserSink = (bytes: Uint8Array, parsed: () => void) => void;

/**
 * One parser write holds at most this much, and at most MAX_WRITE_LINES line feeds. A write is
 * parsed without yielding, so these bound how long one pane's flood holds the event loop while
 * still batching the pty's small reads (1–4 KiB each) into few writes.
 *
 * 16 KiB rather than 64: with many panes taking turns, a pane's queue fills while it waits, and a
 * 64 KiB write of 100-character lines was cut by the scrollback into three pieces parsed back to
 * back, with no time passing between them for the history archive's budget (a share of the time
 * that passes, scrollback.ts) to earn. A quarter of 40 flooding panes then fell back to flooding
 * xterm's 10 050-row buffer (24 MB each at 200 columns): a peak of 475 MiB against 239 before the
 * panes took turns. 16 KiB (160 such lines) is one piece, and no pane fell back.
 */
export const MAX_WRITE_BYTES = 16 * 1024;
/**
 * What a write costs is mostly its line feeds (each scrolls a full buffer: ~1 µs), not its bytes:
 * 64 KiB of `yes` is 21 845 of them, 27 ms. 4096 of them parse in about 4 ms. This cuts a single
 * chunk larger than SCAN_BYTES (the pty's tail, read in 64 KiB blocks, or a restored preface).
 */
export const MAX_WRITE_LINES = 4096;
/** Batches up to this size are written whole, without counting their line feeds. */
export const SCAN_BYTES = 16 * 1024;
const LINE_FEED = 0x0a;

/**
 * Moves pty output into the terminal parser with bounded memory. Chunks queue while a write is
 * being parsed and go out together as the next write, so the parser sees few large writes instead
 * of thousands of small ones; the bytes not yet parsed (queued plus in flight) are counted, and the
 * source is paused when they pass the high-water mark and resumed below the low-water mark.
 *
 * When a write goes out is the scheduler's decision, shared by all panes (ParseScheduler): a small
 * chunk, or the output of a pane just sent input, is written at once; the rest waits for a turn of
 * the event loop, where the panes with output queued take turns, one batch each, within a budget.
 */
export class OutputPump implements ParseTask {
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private inFlightBytes = 0;
  private paused = false;
  private disposed = false;

  constructor(
    private readonly sink: ParserSink,
    private readonly source: FlowSource,
    private marks: FlowMarks,
    /** Called after each write has been parsed. */
    private readonly onParsed: () => void,
    private readonly scheduler: ParseScheduler,
  ) {}

  /** Bytes received but not yet handed to the parser. */
  get queued(): number {
    return this.queuedBytes;
  }

  /** Bytes received but not yet parsed. */
  get pending(): number {
    return this.queuedBytes + this.inFlightBytes;
  }

  /** Whether every byte received so far has been parsed. */
  get idle(): boolean {
    return this.pending === 0;
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0 || this.disposed) return;
    this.queue.push(chunk);
    this.queuedBytes += chunk.byteLength;
    if (this.inFlightBytes === 0) this.scheduler.ready(this);
    this.rebalance();
  }

  /** The program was sent input: what it answers (an echo) is parsed ahead of other panes' floods. */
  inputWritten(): void {
    if (!this.disposed) this.scheduler.prioritize(this);
  }

  /** Change the marks (the pane relaxes them once its process is gone) and act on them at once. */
  setMarks(marks: FlowMarks): void {
    this.marks = marks;
    this.rebalance();
  }

  /** Stop: nothing more is written to the parser (the pane and its terminal are going away). */
  dispose(): void {
    this.disposed = true;
    this.scheduler.forget(this);
  }

  writeBatch(): void {
    const batch = this.takeBatch();
    this.inFlightBytes = batch.byteLength;
    // Set before the call: a parser may call `parsed` synchronously (the pane's does).
    this.sink(batch, () => this.parsedBatch());
  }

  private takeBatch(): Uint8Array {
    let count = 0;
    let size = 0;
    while (count < this.queue.length) {
      const next = this.queue[count]!.byteLength;
      if (count > 0 && size + next > MAX_WRITE_BYTES) break;
      size += next;
      count++;
    }
    const chunks = this.queue.splice(0, count);
    const batch = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    // Most batches are one pty read of a few KiB and skip the scan: below SCAN_BYTES a write parses
    // in a few ms whatever it holds.
    const cut = size > SCAN_BYTES ? afterLineFeed(batch, MAX_WRITE_LINES) : size;
    if (cut < size) this.queue.unshift(batch.subarray(cut));
    this.queuedBytes -= cut;
    return cut < size ? batch.subarray(0, cut) : batch;
  }

  private parsedBatch(): void {
    this.inFlightBytes = 0;
    this.rebalance();
    this.onParsed();
    // After onParsed, which may have disposed of the pane.
    if (this.queuedBytes > 0 && !this.disposed) this.scheduler.ready(this);
  }

  private rebalance(): void {
    if (!this.paused && this.pending > this.marks.high) {
      this.paused = true;
      this.source.pause();
    } else if (this.paused && this.pending < this.marks.low) {
      this.paused = false;
      this.source.resume();
    }
  }
}

/** The offset just past the `count`th line feed of `bytes`, or its length if it has fewer. */
function afterLineFeed(bytes: Uint8Array, count: number): number {
  const length = bytes.byteLength; // read once: the getter is slow to call per byte
  let seen = 0;
  for (let i = 0; i < length; i++) {
    if (bytes[i] === LINE_FEED && ++seen === count) return i + 1;
  }
  return length;
}
