import type { Duplex } from 'node:stream';
import type { BiStream, Connection, RecvStream } from './iroh';
import { irohStreamDuplex, type StreamPair } from './duplex';

/**
 * Application close codes (QUIC `CONNECTION_CLOSE` with an application error code and a reason
 * a person can read). A client tells "refused: do not retry" from "gone: try again" by these.
 */
export const CloseCode = {
  /** The side that closes is done (a detach, the end of a session). */
  done: 0n,
  /** The peer may not use this endpoint; the reason says how to change that. Do not retry. */
  refused: 1n,
  /** The serving endpoint is shutting down. Do not retry. */
  shutdown: 2n,
} as const;

/** The answer to a stream's opening line that lets the stream through. */
const ACCEPTED = 'ok';
/** An opening line is a protocol name: short. */
const MAX_LINE_BYTES = 256;

/** A peer that broke the opening exchange (wrong protocol, no line, garbage). */
export class HandshakeError extends Error {}

/**
 * Each stream starts with one line each way: the opener names the protocol it will speak on it
 * and the acceptor answers `ok` (or why not). The answer is what tells a client that the server
 * let it in; a refused client's connection is closed instead, and it reads the reason there.
 */
export async function openStream(connection: Connection, protocol: string): Promise<Duplex> {
  const bi = await connection.openBi();
  const pair: StreamPair = { send: bi.send, recv: bi.recv };
  await pair.send.writeAll(Array.from(Buffer.from(`${protocol}\n`)));
  const { line, rest } = await readLine(pair.recv);
  if (line !== ACCEPTED) {
    await pair.send.reset(CloseCode.done).catch(() => undefined);
    throw new HandshakeError(`the peer did not accept ${protocol}: ${line}`);
  }
  return irohStreamDuplex(pair, { initial: rest });
}

/**
 * The acceptor's half, for a stream the peer opened (`Connection.acceptBi()`): read its opening
 * line and answer it. Resolves once the stream may carry `protocol`.
 */
export async function answerStream(bi: BiStream, protocol: string): Promise<Duplex> {
  const pair: StreamPair = { send: bi.send, recv: bi.recv };
  const { line, rest } = await readLine(pair.recv);
  if (line !== protocol) {
    await pair.send.writeAll(Array.from(Buffer.from(`expected ${protocol}\n`))).catch(() => undefined);
    await pair.send.finish().catch(() => undefined);
    throw new HandshakeError(`a stream opened with ${JSON.stringify(line)}, not ${protocol}`);
  }
  await pair.send.writeAll(Array.from(Buffer.from(`${ACCEPTED}\n`)));
  return irohStreamDuplex(pair, { initial: rest });
}

/** The first line of `recv` (without its newline) and whatever came after it. */
async function readLine(recv: RecvStream): Promise<{ line: string; rest: Buffer }> {
  let buffered = Buffer.alloc(0);
  for (;;) {
    const newline = buffered.indexOf(0x0a);
    if (newline >= 0) {
      return { line: buffered.subarray(0, newline).toString('utf8'), rest: buffered.subarray(newline + 1) };
    }
    if (buffered.length > MAX_LINE_BYTES) throw new HandshakeError('the opening line is too long');
    const chunk = await recv.read(MAX_LINE_BYTES);
    if (chunk.length === 0) throw new HandshakeError('the stream ended before its opening line');
    buffered = Buffer.concat([buffered, Buffer.from(chunk)]);
  }
}
