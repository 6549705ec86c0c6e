/**
 * Writes to a file descriptor (zor's stdout) in order. A write goes out at once on the main thread
 * (fs.writeSync): handing each chunk of a flood to the thread pool cost a round trip between
 * threads per chunk, and was most of the relay's cost (docs/benchmarks.md, Z2). On a terminal
 * that is a blocking write, which is the backpressure a relay wants: while the terminal is full the
 * child is not read, as under any C pty wrapper, and the parser runs off this path (parse-feed.ts)
 * so there is little else to do meanwhile. A descriptor someone made non-blocking answers EAGAIN
 * instead; then the rest is queued and written through the thread pool (fs.write), bytes queued
 * meanwhile go out together in the next write, and too much queued pauses the child until the
 * terminal catches up. Order and content are unchanged either way.
 */
import { write as writeFd, writeSync } from 'node:fs';

const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;
/** After EAGAIN (a descriptor someone else made non-blocking), try again this soon. */
const RETRY_MS = 5;

export class FdWriter {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private writing = false;
  private full = false;
  private broken = false;
  private drained: (() => void)[] = [];

  /**
   * @param onBackpressure called with true when too much is queued (stop reading the child) and
   *   with false once the queue has drained enough.
   */
  constructor(
    private readonly fd: number,
    private readonly onBackpressure: (full: boolean) => void,
  ) {}

  write(bytes: Buffer): void {
    if (this.broken || bytes.length === 0) return;
    if (!this.writing) {
      const written = this.writeNow(bytes);
      if (written === bytes.length || this.broken) return;
      bytes = bytes.subarray(written);
    }
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    if (!this.full && this.queuedBytes > HIGH_WATER) this.setFull(true);
    if (!this.writing) this.writeNext();
  }

  /** Resolves once everything queued so far is written (or the descriptor has gone away). */
  flush(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  /** Writes what the descriptor takes now; returns how much that was (less after EAGAIN). */
  private writeNow(bytes: Buffer): number {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') this.breakDown();
        return offset;
      }
    }
    return offset;
  }

  /** The terminal is gone (EPIPE, EIO): nothing more can be shown; the child keeps running. */
  private breakDown(): void {
    this.broken = true;
    this.queue = [];
    this.queuedBytes = 0;
    if (this.full) this.setFull(false);
  }

  private setFull(full: boolean): void {
    this.full = full;
    this.onBackpressure(full);
  }

  private writeNext(): void {
    if (this.queue.length === 0) {
      this.writing = false;
      for (const resolve of this.drained.splice(0)) resolve();
      return;
    }
    this.writing = true;
    const bytes = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue);
    this.queue = [];
    this.writeFrom(bytes, 0);
  }

  private writeFrom(bytes: Buffer, offset: number): void {
    writeFd(this.fd, bytes, offset, bytes.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') {
        setTimeout(() => this.writeFrom(bytes, offset), RETRY_MS);
        return;
      }
      if (error) {
        this.breakDown();
        this.writeNext();
        return;
      }
      if (offset + written < bytes.length) {
        this.writeFrom(bytes, offset + written);
        return;
      }
      this.queuedBytes -= bytes.length;
      if (this.full && this.queuedBytes < LOW_WATER) this.setFull(false);
      this.writeNext();
    });
  }
}
