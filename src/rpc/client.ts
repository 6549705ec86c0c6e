import type { Duplex } from 'node:stream';
import type { TRPCClient } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { StreamLink } from './link';
import { createTypedClient } from './typed-client';

export { connectUnix, UnixConnectError, type ConnectUnixOptions } from './connect';

export interface StreamClient<TRouter extends AnyTRPCRouter> {
  client: TRPCClient<TRouter>;
  /** Calls a mutation without an id: the server runs it in order and sends no reply (see StreamLink). */
  notify(path: string, input: unknown): void;
  /** Fails pending calls, flushes what was written, and releases the stream. */
  close(): void;
}

/** A typed tRPC client whose every call goes over `stream`, one JSON message per line. */
export function createStreamClient<TRouter extends AnyTRPCRouter>(
  stream: Duplex,
  options: { maxFrameBytes?: number } = {},
): StreamClient<TRouter> {
  const link = new StreamLink<TRouter>(stream, options.maxFrameBytes);
  return {
    client: createTypedClient(link),
    notify: (path, input) => link.notify(path, input),
    close: () => link.close(),
  };
}
