import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  TRPCError,
  getTRPCErrorShape,
  type AnyTRPCRouter,
  type TRPC_ERROR_CODE_KEY,
  type inferRouterContext,
} from '@trpc/server';
import { getWSConnectionHandler, type WSConnectionHandlerOptions } from '@trpc/server/adapters/ws';
import { StreamConnection, type Connection } from './connection';
import { DEFAULT_MAX_FRAME_BYTES, LineDecoder, encodeFrame } from './framing';
import { WsShim } from './ws-shim';
import { DirectCaller } from './direct-call';
import { ReplyFramer } from './reply-framer';

/** Far above what a reading peer ever leaves buffered (procedures stop at the high-water mark). */
const DEFAULT_MAX_BUFFERED_BYTES = 8 * DEFAULT_MAX_FRAME_BYTES;

export interface StreamHandlerOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  /** Called once per connection; put the connection in the context for `writable()`. */
  createContext: (
    connection: Connection,
  ) => inferRouterContext<TRouter> | Promise<inferRouterContext<TRouter>>;
  /** Largest frame accepted or sent, newline excluded. */
  maxFrameBytes?: number;
  /** Unread output after which a peer is cut off. */
  maxBufferedBytes?: number;
  /** Errors from procedures and streams, for the server's log; tRPC's own option, passed through. */
  onError?: WSConnectionHandlerOptions<TRouter>['onError'];
}

type WsConnectionListener = (socket: WsShim, request: IncomingMessage) => void;

/** The adapter's `experimental_encoder` (the default is JSON in text frames, which this still is). */
interface MessageEncoder {
  encode(message: unknown): string;
  decode(data: string): unknown;
}

/**
 * `getWSConnectionHandler` is typed for a `ws` WebSocket server, but at run time it uses only the
 * members WsShim provides, never the server (`wss`), and of the upgrade request only `url` and
 * `headers` (for `?connectionParams=1`, which we never set). This is the one place the types are
 * bridged.
 */
function wsConnectionListener<TRouter extends AnyTRPCRouter>(
  options: WSConnectionHandlerOptions<TRouter> & { experimental_encoder: MessageEncoder },
): WsConnectionListener {
  const typedForWs = getWSConnectionHandler as unknown as (
    options: WSConnectionHandlerOptions<TRouter> & { experimental_encoder: MessageEncoder },
  ) => WsConnectionListener;
  return typedForWs(options);
}

const NO_UPGRADE_REQUEST = { url: '/', headers: {} } as IncomingMessage;

const WHITESPACE = new Set([0x20, 0x09, 0x0d]);

/** Blank lines are skipped so a person typing into `socat` can press Enter freely. */
function isBlank(frame: Buffer): boolean {
  for (const byte of frame) if (!WHITESPACE.has(byte)) return false;
  return true;
}

/** The adapter answers these `ws` keep-alive words with a bare `PONG`, which is not a JSON frame. */
function isKeepAliveWord(frame: Buffer): boolean {
  return frame.length === 4 && (frame.equals(Buffer.from('PING')) || frame.equals(Buffer.from('PONG')));
}

/**
 * Serves `router` over any duplex stream, one JSON message per line (see index.ts for the wire
 * format). Returns the function to call with each new stream (e.g. the listener of
 * `net.createServer`), which returns the connection it serves the stream as.
 */
export function createStreamHandler<TRouter extends AnyTRPCRouter>(
  options: StreamHandlerOptions<TRouter>,
): (stream: Duplex) => Connection {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const config = options.router._def._config;
  let lastId = 0;

  /** A reply to no request (`id: null`), shaped by the router's own error formatter. */
  const transportError = (code: TRPC_ERROR_CODE_KEY, message: string): Buffer =>
    encodeFrame({
      id: null,
      error: getTRPCErrorShape({
        config,
        error: new TRPCError({ code, message }),
        type: 'unknown',
        path: undefined,
        input: undefined,
        ctx: undefined,
      }),
    });

  return (stream) => {
    const connection: StreamConnection = new StreamConnection(stream, ++lastId, {
      maxBufferedBytes,
      farewell: (reason) =>
        transportError('SERVICE_UNAVAILABLE', `the server closed the connection: ${reason}`),
      onStreamError: (error) => socket.emit('error', error),
    });
    // A reply that had to be replaced is told to the server's log like a failed call.
    const framer = new ReplyFramer(config, maxFrameBytes, (error, to) =>
      options.onError?.({
        error,
        path: to.path,
        type: to.type ?? 'unknown',
        ctx: undefined,
        req: NO_UPGRADE_REQUEST,
        input: undefined,
      }),
    );
    const direct = new DirectCaller({
      router: options.router,
      connection,
      framer,
      onError: options.onError,
    });
    const socket = new WsShim(connection, framer, (message) => direct.take(message));
    // One context for the connection, shared by the adapter (subscriptions, and every call until
    // the context is made) and the direct path (queries and mutations after).
    const context = (async () => options.createContext(connection))();
    context.then(
      (ctx) => direct.ready(ctx),
      () => undefined, // the adapter reports the failure and closes the connection
    );
    wsConnectionListener<TRouter>({
      router: options.router,
      createContext: () => context,
      onError: options.onError,
      experimental_encoder: {
        encode: (message) => JSON.stringify(message),
        decode: (data) => socket.decode(data),
      },
    })(socket, NO_UPGRADE_REQUEST);

    const decoder = new LineDecoder({
      maxFrameBytes,
      onFrame: (frame) => {
        if (isBlank(frame)) return;
        if (isKeepAliveWord(frame))
          connection.send(transportError('PARSE_ERROR', 'a frame must be a JSON message'));
        else socket.deliver(frame);
      },
      onOversizeFrame: (bytes) =>
        connection.send(
          transportError(
            'PAYLOAD_TOO_LARGE',
            `a frame of ${bytes} bytes exceeds the ${maxFrameBytes}-byte limit and was skipped`,
          ),
        ),
      onLost: (bytes) =>
        connection.close(`a frame ran past ${bytes} bytes with no newline; the next frame cannot be found`),
    });
    stream.on('data', (chunk: Buffer | string) => {
      if (connection.isOpen) decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    });
    return connection;
  };
}
