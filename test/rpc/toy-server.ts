import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  createStreamHandler,
  errorFormatter,
  type Connection,
  type StreamHandlerOptions,
  type TransportMeta,
} from '../../src/rpc';
import { pushStream } from '../../src/rpc/push-stream';

/** What the toy router's procedures let a test observe from the server side. */
export class Observations {
  /** Items each connection's `flood` generator has produced, by connection id. */
  readonly produced = new Map<number, number>();
  /** Subscriptions whose generator has run its `finally`. */
  finishedSubscriptions = 0;
  readonly errors: string[] = [];
  /** What `remember` was called with, in order. */
  readonly remembered: string[] = [];
  /** The `bells` subscriptions' listeners: `press` rings them. */
  readonly bells = new Set<(n: number) => void>();
}

const t = initTRPC
  .context<{ conn: Connection; seen: Observations }>()
  .meta<TransportMeta>()
  .create({ isDev: false, errorFormatter });

export const toyRouter = t.router({
  echo: t.procedure.input(z.object({ text: z.string() })).query(({ input }) => input.text),
  add: t.procedure
    .input(z.object({ a: z.number(), b: z.number() }))
    .mutation(({ input }) => ({ sum: input.a + input.b })),
  /** A side effect a test can see, for calls whose reply it does not get (notifications). */
  remember: t.procedure.input(z.object({ note: z.string() })).mutation(({ ctx, input }) => {
    ctx.seen.remembered.push(input.note);
    return ctx.seen.remembered.length;
  }),
  connectionId: t.procedure.query(({ ctx }) => ctx.conn.id),
  /**
   * A key and its echo: returns `n` with its reply held (TransportMeta), and with `ring` rings the
   * bells with `n` on the next turn, as a pty's echo arrives after the keys' write.
   */
  press: t.procedure
    .meta({ holdReply: true })
    .input(z.object({ n: z.number().int(), ring: z.boolean() }))
    .mutation(({ ctx, input }) => {
      if (input.ring) setImmediate(() => ctx.seen.bells.forEach((ring) => ring(input.n)));
      return input.n;
    }),
  /** `blob` with its reply held. */
  heldBlob: t.procedure
    .meta({ holdReply: true })
    .input(z.object({ bytes: z.number().int() }))
    .query(({ input }) => 'x'.repeat(input.bytes)),
  /** Every `press` that rings, as it rings. */
  bells: t.procedure.subscription(({ ctx }) =>
    pushStream<number>(
      (emit, signal) =>
        new Promise<void>((resolve) => {
          ctx.seen.bells.add(emit);
          signal.addEventListener('abort', () => {
            ctx.seen.bells.delete(emit);
            resolve();
          });
        }),
    ),
  ),
  /** A reply of about `bytes` bytes of JSON. */
  blob: t.procedure
    .input(z.object({ bytes: z.number().int() }))
    .query(({ input }) => 'x'.repeat(input.bytes)),
  failUnexpectedly: t.procedure.query((): string => {
    throw new Error(`could not read ${path.join(__dirname, 'secret', 'state.json')}`);
  }),
  /** Fails with a message that repeats its input, as `no workspace named NAME` does. */
  lookUp: t.procedure.input(z.object({ name: z.string() })).query(({ input }): string => {
    throw new TRPCError({
      code: 'NOT_FOUND',
      message: `no thing named ${input.name}; \`things\` lists them`,
    });
  }),
  failOnPurpose: t.procedure.query((): string => {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'no pane 7 in workspace main' });
  }),
  hangUp: t.procedure.input(z.object({ reason: z.string() })).mutation(({ ctx, input }) => {
    ctx.conn.close(input.reason);
    return 'closing';
  }),
  /** Never answers, so a test can have a call pending when the connection goes. */
  never: t.procedure.query(() => new Promise<string>(() => undefined)),
  /** `count` numbers, then the subscription ends by itself. */
  count: t.procedure.input(z.object({ to: z.number().int() })).subscription(async function* ({ ctx, input }) {
    try {
      for (let i = 1; i <= input.to; i++) {
        await ctx.conn.writable();
        yield i;
      }
    } finally {
      ctx.seen.finishedSubscriptions++;
    }
  }),
  /**
   * `count` as a push stream (written from its own loop): numbers up to `to`, then its own end;
   * with `failAt`, a failure in place of that number; with no `to`, until stopped.
   */
  ticks: t.procedure
    .input(z.object({ to: z.number().int().optional(), failAt: z.number().int().optional() }))
    .subscription(({ ctx, input }) =>
      pushStream<number>(async (emit, signal) => {
        try {
          for (let i = 1; input.to === undefined || i <= input.to; i++) {
            await ctx.conn.writable();
            // Paced by the event loop, so a stop has a turn to arrive between two items.
            await new Promise((resolve) => setImmediate(resolve));
            if (signal.aborted) return;
            if (i === input.failAt) throw new TRPCError({ code: 'CONFLICT', message: `no tick ${i}` });
            emit(i);
          }
        } finally {
          ctx.seen.finishedSubscriptions++;
        }
      }),
    ),
  /** As fast as the connection takes them: items of `itemBytes` characters, until stopped. */
  flood: t.procedure.input(z.object({ itemBytes: z.number().int() })).subscription(async function* ({
    ctx,
    input,
  }) {
    const item = 'y'.repeat(input.itemBytes);
    try {
      for (let n = 1; ; n++) {
        await ctx.conn.writable();
        ctx.seen.produced.set(ctx.conn.id, n);
        yield { n, item };
      }
    } finally {
      ctx.seen.finishedSubscriptions++;
    }
  }),
});

export type ToyRouter = typeof toyRouter;

/** The toy router called in-process, as a server calls its own procedures. */
export const createToyCaller = t.createCallerFactory(toyRouter);

export interface ToyServer {
  socketPath: string;
  seen: Observations;
  /** Every connection the handler has served, in order. */
  connections: Connection[];
  stop(): Promise<void>;
}

/** The toy router on a real unix socket in a private temporary directory. */
export async function startToyServer(
  options: Partial<Pick<StreamHandlerOptions<ToyRouter>, 'maxBufferedBytes' | 'maxFrameBytes'>> = {},
): Promise<ToyServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-rpc-'));
  const socketPath = path.join(dir, 'rpc.sock');
  const seen = new Observations();
  const connections: Connection[] = [];
  const handle = createStreamHandler({
    router: toyRouter,
    createContext: (conn) => ({ conn, seen }),
    onError: ({ error }) => seen.errors.push(error.message),
    ...options,
  });
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    connections.push(handle(socket));
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    seen,
    connections,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
