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
 * One parser write holds at most this much. A write is parsed without yielding, so this bounds how
 * long one pane's flood can hold the event loop (about 5 ms at xterm's ~12 MB/s for dense output)
 * while still batching the pty's small reads (1–4 KiB each) into few writes.
 */
export const MAX_WRITE_BYTES = 64 * 1024;

/**
 * Moves pty output into the terminal parser with bounded memory. Chunks queue while a write is
 * being parsed and go out together as the next write, so the parser sees few large writes instead
 * of thousands of small ones; the bytes not yet parsed (queued plus in flight) are counted, and the
 * source is paused when they pass the high-water mark and resumed below the low-water mark.
 */
export class OutputPump {
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private inFlightBytes = 0;
  private paused = false;

  constructor(
    private readonly sink: ParserSink,
    private readonly source: FlowSource,
    private marks: FlowMarks,
    /** Called after each write has been parsed. */
    private readonly onParsed: () => void,
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
    if (this.inFlightBytes === 0) this.flush();
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
    // Set before the call: a parser may call `parsed` synchronously (xterm does right after input).
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
    this.queuedBytes -= size;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  }

  private parsedBatch(): void {
    this.inFlightBytes = 0;
    if (this.queuedBytes > 0) this.flush();
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
