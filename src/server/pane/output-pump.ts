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

/** Runs `task` on a later turn of the event loop, after pending I/O (setImmediate; tests step it by hand). */
export type TurnScheduler = (task: () => void) => void;

/**
 * One parser write holds at most this much, and at most MAX_WRITE_LINES line feeds. A write is
 * parsed without yielding, so these bound how long one pane's flood holds the event loop while
 * still batching the pty's small reads (1–4 KiB each) into few writes.
 */
export const MAX_WRITE_BYTES = 64 * 1024;
/**
 * What a write costs is mostly its line feeds (each scrolls a full buffer: ~1 µs), not its bytes:
 * 64 KiB of `yes` is 21 845 of them, 27 ms. 4096 of them parse in about 4 ms, the echo of another
 * pane waiting behind them at worst that long, while `seq` still gets 32 KiB writes.
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
 * A chunk that arrives while nothing is in flight is written at once; the next batch after a
 * parsed write waits for one turn of the event loop (not a timer), so the other panes' output and
 * the clients' requests that arrived meanwhile are served between two batches of a flood.
 */
export class OutputPump {
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private inFlightBytes = 0;
  private flushScheduled = false;
  private paused = false;

  constructor(
    private readonly sink: ParserSink,
    private readonly source: FlowSource,
    private marks: FlowMarks,
    /** Called after each write has been parsed. */
    private readonly onParsed: () => void,
    private readonly nextTurn: TurnScheduler = setImmediate,
  ) {}

  /** Bytes received but not yet parsed. */
  get pending(): number {
    return this.queuedBytes + this.inFlightBytes;
  }

  /** Whether every byte received so far has been parsed. */
  get idle(): boolean {
    return this.pending === 0;
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.queue.push(chunk);
    this.queuedBytes += chunk.byteLength;
    if (this.inFlightBytes === 0 && !this.flushScheduled) this.flush();
    this.rebalance();
  }

  /** Change the marks (the pane relaxes them once its process is gone) and act on them at once. */
  setMarks(marks: FlowMarks): void {
    this.marks = marks;
    this.rebalance();
  }

  private flush(): void {
    const batch = this.takeBatch();
    this.inFlightBytes = batch.byteLength;
    // Set before the call: a parser may call `parsed` synchronously (the pane's does).
    this.sink(batch, () => this.parsedBatch());
  }

  private scheduledFlush(): void {
    this.flushScheduled = false;
    if (this.inFlightBytes === 0 && this.queuedBytes > 0) this.flush();
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
    if (this.queuedBytes > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      this.nextTurn(() => this.scheduledFlush());
    }
    this.rebalance();
    this.onParsed();
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
