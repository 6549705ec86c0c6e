import { Duplex } from 'node:stream';
import type { RecvStream, SendStream } from './iroh';
import { nodeErrorOf } from './errors';

/** The two halves of a QUIC bi-directional stream (iroh's `BiStream`, taken apart once). */
export interface StreamPair {
  send: SendStream;
  recv: RecvStream;
}

export interface StreamDuplexOptions {
  /** Bytes already read from `recv` (past a handshake line), delivered before anything else. */
  initial?: Buffer;
  /** The most one read asks iroh for. */
  readChunkBytes?: number;
}

const DEFAULT_READ_CHUNK = 64 * 1024;

/**
 * The most handed to iroh at once. Each byte crosses into native code as a JS number, so a batch
 * of queued writes is joined only up to this size: one huge array would cost memory (8 bytes a
 * byte) and hold the whole batch's callback until the last byte fits the peer's window.
 */
const WRITE_PIECE_BYTES = 64 * 1024;

/** Write `chunks` in order, joined into pieces of at most WRITE_PIECE_BYTES (bigger chunks are cut). */
async function writePieces(send: SendStream, chunks: Buffer[]): Promise<void> {
  let piece: Buffer[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (size === 0) return;
    await send.writeAll(Array.from(piece.length === 1 ? piece[0]! : Buffer.concat(piece, size)));
    piece = [];
    size = 0;
  };
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += WRITE_PIECE_BYTES) {
      const part = chunk.subarray(at, at + WRITE_PIECE_BYTES);
      if (size + part.length > WRITE_PIECE_BYTES) await flush();
      piece.push(part);
      size += part.length;
    }
  }
  await flush();
}

/**
 * An iroh stream as a Node `Duplex`, so anything that speaks over a socket (the rpc layer's
 * newline-JSON framing) speaks over iroh unchanged.
 *
 * Backpressure both ways: a write's callback runs only once iroh has taken the bytes (its
 * `writeAll` resolves when they fit QUIC's flow-control window), so `write()` returns false and
 * 'drain' comes late exactly when the peer reads slowly; and reading stops while `push()` says the
 * consumer is full, which leaves the bytes in QUIC's receive window and slows the sender.
 *
 * The bindings take and give `Array<number>` (a Buffer is rejected), so chunks are converted at
 * this edge. Errors become Node errors with a readable message; a lost or reset stream carries
 * code ECONNRESET, as a dropped socket would.
 */
export function irohStreamDuplex(pair: StreamPair, options: StreamDuplexOptions = {}): Duplex {
  const { send, recv } = pair;
  const chunkBytes = options.readChunkBytes ?? DEFAULT_READ_CHUNK;
  let reading = false;
  let ended = false;

  const duplex: Duplex = new Duplex({
    read() {
      if (reading || ended) return;
      reading = true;
      void (async () => {
        try {
          for (;;) {
            const bytes = await recv.read(chunkBytes);
            if (duplex.destroyed) return;
            if (bytes.length === 0) {
              ended = true;
              duplex.push(null);
              return;
            }
            if (!duplex.push(Buffer.from(bytes))) return;
          }
        } catch (error) {
          duplex.destroy(nodeErrorOf(error));
        } finally {
          reading = false;
        }
      })();
    },

    write(chunk: Buffer, _encoding, callback) {
      writePieces(send, [chunk]).then(
        () => callback(),
        (error: unknown) => callback(nodeErrorOf(error)),
      );
    },

    // Frames queued while a write was in flight go out together: fewer crossings into native code.
    writev(chunks, callback) {
      writePieces(
        send,
        chunks.map(({ chunk }) => chunk as Buffer),
      ).then(
        () => callback(),
        (error: unknown) => callback(nodeErrorOf(error)),
      );
    },

    final(callback) {
      send.finish().then(
        () => callback(),
        (error: unknown) => callback(nodeErrorOf(error)),
      );
    },

    destroy(error, callback) {
      // Tell the peer at once rather than leaving it to time out; either half may already be shut.
      if (!duplex.writableFinished) send.reset(0n).catch(() => undefined);
      if (!ended) recv.stop(0n).catch(() => undefined);
      callback(error);
    },
  });
  if (options.initial?.length) duplex.push(options.initial);
  return duplex;
}
