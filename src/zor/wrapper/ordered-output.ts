/**
 * Ordering of zor's stdout. Child output is handed on the moment it arrives, before anything
 * parses it; zor's own bytes (state OSCs, titles) go out only when the stream sits at an
 * escape-sequence boundary, and otherwise wait for the next chunk that ends at one. Everything
 * goes through one `write`, in order, so a chunk and an injection never interleave.
 */
import { EscapeBoundary } from './escape-boundary';

export class OrderedOutput {
  private readonly boundary = new EscapeBoundary();
  private pendingInjections: string[] = [];

  constructor(private readonly write: (bytes: Buffer) => void) {}

  /** Hands the chunk on; returns where its trailing plain run begins (EscapeBoundary.feed). */
  childOutput(chunk: Uint8Array): number {
    this.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    const plainFrom = this.boundary.feed(chunk);
    if (this.boundary.atBoundary && this.pendingInjections.length > 0) {
      const queued = this.pendingInjections.join('');
      this.pendingInjections = [];
      this.write(Buffer.from(queued, 'utf8'));
    }
    return plainFrom;
  }

  /** Writes zor's own bytes now if the stream is between sequences, else after the next chunk that is. */
  inject(text: string): void {
    if (this.boundary.atBoundary) this.write(Buffer.from(text, 'utf8'));
    else this.pendingInjections.push(text);
  }
}
