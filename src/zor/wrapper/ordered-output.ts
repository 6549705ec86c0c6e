/**
 * The single owner of zor's stdout. Child output is written first, in the chunks it arrived in,
 * before anything parses it; zor's own bytes (state OSCs, titles) are written only when the stream
 * sits at an escape-sequence boundary, and otherwise wait for the next chunk that ends at one.
 */
import { EscapeBoundary } from './escape-boundary';

export class OrderedOutput {
  private readonly boundary = new EscapeBoundary();
  private pending: string[] = [];
  private blocked = false;

  /**
   * @param onBackpressure called with true when stdout's buffer is full (stop reading the child)
   *   and false once it drains.
   */
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly onBackpressure: (full: boolean) => void,
  ) {}

  childOutput(chunk: Uint8Array): void {
    this.write(chunk);
    this.boundary.feed(chunk);
    if (this.boundary.atBoundary && this.pending.length > 0) {
      const queued = this.pending.join('');
      this.pending = [];
      this.write(queued);
    }
  }

  /** Writes zor's own bytes now if the stream is between sequences, else after the next chunk that is. */
  inject(text: string): void {
    if (this.boundary.atBoundary) this.write(text);
    else this.pending.push(text);
  }

  /** Resolves once everything written so far has been handed to the operating system. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.out.write('', () => resolve()));
  }

  private write(data: Uint8Array | string): void {
    if (this.out.write(data) || this.blocked) return;
    this.blocked = true;
    this.onBackpressure(true);
    this.out.once('drain', () => {
      this.blocked = false;
      this.onBackpressure(false);
    });
  }
}
