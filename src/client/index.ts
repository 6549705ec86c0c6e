/**
 * The typed client of the fux control API: `import { connect } from 'fux'`.
 *
 *     const fux = await connect();
 *     const { id } = await fux.client.new.mutate({ argv: ['htop'], cwd: process.cwd() });
 *     await fux.client.sendKeys.mutate({ id, keys: ['q'] });
 *     console.log((await fux.client.list.query({})).workspaces);
 *     fux.close();
 *
 * Every procedure of the server's router is here with its input and output types; the CLI uses the
 * same client.
 */
import type { TRPCClient } from '@trpc/client';
import type { AppRouter } from '../server/router';
import { connectUnix, createStreamClient } from '../rpc/client';
import { resolveSocketPath } from '../paths';
import type { ChildProcess } from 'node:child_process';
import { logTail, serverLog, spawnServer } from './server-process';

export type { AppRouter };
export type FuxClient = TRPCClient<AppRouter>;
/** `list` with every page read and joined: what `fux list` prints. */
export { listAll } from './list-all';

export interface ConnectOptions {
  /** The server's socket; default: `FUX_SOCKET`, else the per-user default. */
  socket?: string;
  /** Start a server in the background when none answers (default true). */
  autostart?: boolean;
  /** How long to wait for a server that is starting (default 10 s). */
  startTimeoutMs?: number;
}

export interface Connection {
  client: FuxClient;
  socket: string;
  /** Calls a mutation as a notification: run in order with the calls, never answered. */
  notify(path: string, input: unknown): void;
  close(): void;
}

/** Raised when no server answers and none could be started; the message says what to do. */
export class NoServerError extends Error {}

const noListener = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ECONNREFUSED';
};

export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  const socket = resolveSocketPath(opts.socket);
  let stream;
  try {
    stream = await connectUnix(socket);
  } catch (err) {
    if (!noListener(err)) throw err;
    if (opts.autostart === false) {
      throw new NoServerError(
        `no fux server is running on ${socket}; start one with \`fux serve\` or run any fux verb`,
      );
    }
    stream = await waitForServer(socket, spawnServer(socket), opts.startTimeoutMs ?? 10_000);
  }
  const { client, notify, close } = createStreamClient<AppRouter>(stream);
  return { client, socket, notify, close };
}

/**
 * Poll the socket until the new server answers. A server that exits first failed to start — unless
 * it lost a start race (exit 0), in which case the winner will answer.
 */
async function waitForServer(
  socket: string,
  child: ChildProcess,
  timeoutMs: number,
): ReturnType<typeof connectUnix> {
  const deadline = Date.now() + timeoutMs;
  let failed: number | undefined;
  child.once('exit', (code) => {
    if (code) failed = code;
  });
  let delay = 5;
  for (;;) {
    if (failed !== undefined) {
      throw new NoServerError(
        `the fux server failed to start (exit ${failed}); its log ${serverLog(socket)} ends with:\n${logTail(socket)}`,
      );
    }
    try {
      return await connectUnix(socket);
    } catch (err) {
      if (!noListener(err)) throw err;
      if (Date.now() > deadline) {
        throw new NoServerError(
          `the fux server did not start on ${socket} within ${timeoutMs} ms; its log is ${serverLog(socket)}`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
  }
}
