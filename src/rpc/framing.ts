/** DESIGN.md §5: a frame is at most 1 MiB, so one reply can never make a peer buffer without bound. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/** An outgoing message whose encoded frame would exceed the limit; it is never sent truncated. */
export class FrameTooLargeError extends Error {
  override readonly name = 'FrameTooLargeError';

  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`a message of ${bytes} bytes exceeds the ${limit}-byte frame limit`);
  }
}

/**
 * One frame: JSON text followed by a newline. The limit counts the JSON bytes, not the newline,
 * the same way the decoder counts them.
 */
export function frameJson(json: string, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): Buffer {
  const bytes = Buffer.byteLength(json);
  if (bytes > maxFrameBytes) throw new FrameTooLargeError(bytes, maxFrameBytes);
  const frame = Buffer.allocUnsafe(bytes + 1);
  frame.write(json, 0, 'utf8');
  frame[bytes] = NEWLINE;
  return frame;
}

export function encodeFrame(message: object, maxFrameBytes = DEFAULT_MAX_FRAME_BYTES): Buffer {
  return frameJson(JSON.stringify(message), maxFrameBytes);
}

export interface LineDecoderOptions {
  /** The largest frame passed to `onFrame`, newline excluded. */
  maxFrameBytes?: number;
  /**
   * How many bytes of an over-size frame are discarded while looking for its newline before the
   * stream is declared lost. Defaults to `maxFrameBytes`.
   */
  maxDiscardBytes?: number;
  /** A complete frame, without its newline. */
  onFrame: (frame: Buffer) => void;
  /** An over-size frame was skipped and the decoder is back in step at the byte after its newline. */
  onOversizeFrame: (bytes: number) => void;
  /** An over-size frame ran past the discard budget with no newline: nothing more will be decoded. */
  onLost: (bytesWithoutNewline: number) => void;
}

/**
 * Splits a byte stream into newline-terminated frames. Chunks may end anywhere, a frame may span
 * many chunks and one chunk may hold many frames; partial frames are kept as a list of slices so a
 * frame arriving in many small chunks costs one copy, not one per chunk.
 */
export class LineDecoder {
  private readonly maxFrameBytes: number;
  private readonly maxDiscardBytes: number;
  private partial: Buffer[] = [];
  /** Bytes of the current (unterminated) frame seen so far, kept or discarded. */
  private frameBytes = 0;
  private discarding = false;
  private lost = false;

  constructor(private readonly options: LineDecoderOptions) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.maxDiscardBytes = options.maxDiscardBytes ?? this.maxFrameBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.lost && start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.accumulate(chunk.subarray(start));
        return;
      }
      this.finishFrame(chunk.subarray(start, newline));
      start = newline + 1;
    }
  }

  private accumulate(piece: Buffer): void {
    this.frameBytes += piece.length;
    if (!this.discarding && this.frameBytes > this.maxFrameBytes) {
      // Holding on to the start of a frame we will never deliver would only cost memory.
      this.partial = [];
      this.discarding = true;
    }
    if (this.discarding) {
      if (this.frameBytes > this.maxFrameBytes + this.maxDiscardBytes) {
        this.lost = true;
        this.partial = [];
        this.options.onLost(this.frameBytes);
      }
      return;
    }
    this.partial.push(piece);
  }

  private finishFrame(tail: Buffer): void {
    const bytes = this.frameBytes + tail.length;
    const wasDiscarding = this.discarding;
    const head = this.partial;
    this.partial = [];
    this.frameBytes = 0;
    this.discarding = false;
    if (wasDiscarding || bytes > this.maxFrameBytes) {
      this.options.onOversizeFrame(bytes);
      return;
    }
    this.options.onFrame(head.length === 0 ? tail : Buffer.concat([...head, tail], bytes));
  }
}
