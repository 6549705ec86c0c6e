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
import { checkSocketBeforeConnect, checkSocketPeer, resolveSocketPath, runtimePaths } from '../paths';
import { peerUid } from '../peer-cred';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/**
 * Connect to the server on `socket`, refusing one that is not ours before a byte is sent (a verb
 * sends its caller's environment): the directory and the socket file are checked first, then the
 * uid of the process that answered.
 */
async function dial(socket: string): ReturnType<typeof connectUnix> {
  checkSocketBeforeConnect(socket);
  const stream = await connectUnix(socket);
  try {
    checkSocketPeer(socket, peerUid(stream));
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return stream;
}

export async function connect(opts: ConnectOptions = {}): Promise<Connection> {
  const socket = resolveSocketPath(opts.socket);
  let stream;
  try {
    stream = await dial(socket);
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
 * How long a start that lost its race (the winner then serves) may go without an answer before the
 * verb says who holds the lock: the winner listens right after it takes the lock.
 */
const WINNER_GRACE_MS = 2000;

/**
 * Poll the socket until the new server answers. A server that exits first failed to start (the
 * verb then says why, in one line, from its log) — unless it lost a start race (exit 0), in which
 * case the winner answers soon or the verb names who holds the lock.
 */
async function waitForServer(
  socket: string,
  child: ChildProcess,
  timeoutMs: number,
): ReturnType<typeof connectUnix> {
  const deadline = Date.now() + timeoutMs;
  let failed: number | undefined;
  let lostRaceAt: number | undefined;
  child.once('exit', (code) => {
    if (code) failed = code;
    else lostRaceAt = Date.now();
  });
  let delay = 5;
  for (;;) {
    if (failed !== undefined) {
      throw new NoServerError(
        `the fux server failed to start (exit ${failed}): ${startFailure(socket)} (log: ${serverLog(socket)})`,
      );
    }
    try {
      return await dial(socket);
    } catch (err) {
      if (!noListener(err)) throw err;
      if (lostRaceAt !== undefined && Date.now() - lostRaceAt > WINNER_GRACE_MS) {
        throw new NoServerError(
          `another fux server (${lockHolder(socket)}) took the start but does not answer on ${socket}; its log is ${serverLog(socket)}`,
        );
      }
      if (Date.now() > deadline) {
        throw new NoServerError(
          `the fux server did not start on ${socket} within ${timeoutMs} ms (${lockHolder(socket)}); its log is ${serverLog(socket)}`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 100);
  }
}

/** The server's own word on why it stopped: its last `fux serve:` line, else the log's last line. */
function startFailure(socket: string): string {
  const lines = logTail(socket, 20).split('\n');
  const said = lines.filter((l) => l.startsWith('fux serve: ')).at(-1);
  return said?.slice('fux serve: '.length) ?? lines.at(-1) ?? 'it wrote nothing to its log';
}

/** Who the server lock beside the socket names, for a failed start's message. */
function lockHolder(socket: string): string {
  const { lock } = runtimePaths(socket);
  const pid = Number.parseInt(readFileOr(lock), 10);
  return Number.isInteger(pid) && pid > 0 ? `the lock ${lock} names pid ${pid}` : 'no lock is held';
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
