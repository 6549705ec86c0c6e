/**
 * Writes to a file descriptor (zor's stdout) in order, through the thread pool (fs.write) rather
 * than with a blocking write on the main thread: a terminal drains at its own pace, and while one
 * write waits on it zor keeps reading and parsing the child's next output. Bytes queued during a
 * write go out together in the next one; their order and content are unchanged. Too much queued
 * pauses the child (backpressure) until the terminal catches up.
 */
import { write as writeFd } from 'node:fs';

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
        // The terminal is gone (EPIPE, EIO): nothing more can be shown; the child keeps running.
        this.broken = true;
        this.queue = [];
        this.queuedBytes = 0;
        if (this.full) this.setFull(false);
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
