/**
 * Buffers to text when a read may end in the middle of a UTF-8 character: the incomplete tail is
 * held back until the next chunk completes it. Invalid bytes become U+FFFD, as the attach
 * protocol's input is UTF-8 text and cannot carry them.
 */
export class Utf8Chunks {
  private tail: Buffer = Buffer.alloc(0);

  /** The text of `chunk` after what was held back, less any incomplete character at its end. */
  decode(chunk: Buffer): string {
    const bytes = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    const complete = completeLength(bytes);
    this.tail = Buffer.from(bytes.subarray(complete));
    return bytes.toString('utf8', 0, complete);
  }

  /** Whether bytes of an incomplete character are held back. */
  get holding(): boolean {
    return this.tail.length > 0;
  }

  /** Gives up on the held-back bytes (no more are coming): their text, U+FFFD for the broken character. */
  end(): string {
    const text = this.tail.toString('utf8');
    this.tail = Buffer.alloc(0);
    return text;
  }
}

/** The length of the longest prefix of `bytes` that does not end inside a UTF-8 character. */
function completeLength(bytes: Buffer): number {
  const lookBack = Math.min(3, bytes.length);
  for (let back = 1; back <= lookBack; back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf8 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
