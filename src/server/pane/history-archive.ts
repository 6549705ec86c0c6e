/** Archived rows are packed into buffers of this size (a longer row gets a buffer of its own). */
const CHUNK_BYTES = 64 * 1024;
/** Index slots are allocated as rows arrive, from this many up to the capacity. */
const FIRST_SLOTS = 256;

/**
 * The oldest part of a pane's history, one row per entry as `renderStyledLine` writes it, in a
 * ring: at most `capacity` rows, the oldest dropped first. Rows are stored as UTF-8 bytes packed
 * into large buffers, with a typed-array index: a plain ASCII row costs its length plus 12 bytes,
 * and the archive makes no object per row for the garbage collector to keep track of.
 */
export class HistoryArchive {
  /** Buffers holding the rows in order, oldest first; `chunks[0]` has id `firstChunkId`. */
  private chunks: Buffer[] = [];
  private firstChunkId = 0;
  /** Where the next row goes in the newest chunk. */
  private writeOffset = 0;
  /** Per row, in a ring of slots starting at `head`: its chunk id, offset and length in bytes. */
  private chunkIds: Int32Array = new Int32Array(0);
  private offsets: Int32Array = new Int32Array(0);
  private lengths: Int32Array = new Int32Array(0);
  private head = 0;
  private count = 0;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`bad archive capacity ${capacity}`);
  }

  get length(): number {
    return this.count;
  }

  /** Add the newest row; when full, the oldest goes. */
  push(row: string): void {
    const size = Buffer.byteLength(row);
    const chunk = this.reserve(size);
    if (chunk !== undefined) chunk.write(row, this.writeOffset - size);
  }

  /** Add the newest row given as the first `length` bytes of `bytes`, all ASCII (no encoding needed). */
  pushAscii(bytes: Uint8Array, length: number): void {
    const chunk = this.reserve(length);
    if (chunk === undefined) return;
    // Rows are short (a few to some hundred bytes): a loop beats `set` on a fresh view per row.
    for (let i = 0, at = this.writeOffset - length; i < length; i++, at++) chunk[at] = bytes[i]!;
  }

  /** Index a new row of `size` bytes and return the chunk to write it to, ending at `writeOffset`. */
  private reserve(size: number): Buffer | undefined {
    if (this.capacity === 0) return undefined;
    if (this.count === this.capacity) this.dropOldest();
    else if (this.count === this.chunkIds.length) this.growIndex();
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.writeOffset + size > chunk.length) {
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size));
      this.chunks.push(chunk);
      this.writeOffset = 0;
    }
    const slot = (this.head + this.count) % this.chunkIds.length;
    this.chunkIds[slot] = this.firstChunkId + this.chunks.length - 1;
    this.offsets[slot] = this.writeOffset;
    this.lengths[slot] = size;
    this.writeOffset += size;
    this.count++;
    return chunk;
  }

  /** The row `index` places after the oldest (0 is the oldest). */
  at(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) {
      throw new RangeError(`no archived row ${index} of ${this.count}`);
    }
    const slot = (this.head + index) % this.chunkIds.length;
    const chunk = this.chunks[this.chunkIds[slot]! - this.firstChunkId]!;
    const offset = this.offsets[slot]!;
    return chunk.toString('utf8', offset, offset + this.lengths[slot]!);
  }

  clear(): void {
    this.chunks = [];
    this.firstChunkId = 0;
    this.writeOffset = 0;
    this.head = 0;
    this.count = 0;
  }

  private dropOldest(): void {
    this.head = (this.head + 1) % this.chunkIds.length;
    this.count--;
    // Chunks before the oldest row's are empty now; rows leave in order, so they go from the front.
    const oldestChunk =
      this.count > 0 ? this.chunkIds[this.head]! : this.firstChunkId + this.chunks.length - 1;
    while (this.firstChunkId < oldestChunk) {
      this.chunks.shift();
      this.firstChunkId++;
    }
  }

  private growIndex(): void {
    const size = Math.min(this.capacity, Math.max(FIRST_SLOTS, this.chunkIds.length * 2));
    const grow = (old: Int32Array): Int32Array => {
      const next = new Int32Array(size);
      // Unroll the ring so that the oldest row is in slot 0.
      for (let i = 0; i < this.count; i++) next[i] = old[(this.head + i) % old.length]!;
      return next;
    };
    this.chunkIds = grow(this.chunkIds);
    this.offsets = grow(this.offsets);
    this.lengths = grow(this.lengths);
    this.head = 0;
  }
}
