import * as net from 'node:net';

/** Why a unix socket could not be reached; `code` is the system's, so callers can branch on it. */
export class UnixConnectError extends Error {
  override readonly name = 'UnixConnectError';

  constructor(
    readonly path: string,
    readonly code: string,
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

export interface ConnectUnixOptions {
  /** How many more attempts when the listen backlog is full (EAGAIN); the default 60 back off over about 3 s. */
  retries?: number;
  /** Told before each retry, for a log line; `attempt` is the number of the attempt that failed. */
  onRetry?: (attempt: number, error: Error) => void;
}

const FIRST_RETRY_MS = 1;
const LONGEST_RETRY_MS = 50;

function attempt(path: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ path });
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

function describe(path: string, error: NodeJS.ErrnoException, attempts: number): UnixConnectError | Error {
  switch (error.code) {
    case 'ENOENT':
      return new UnixConnectError(path, error.code, `no socket at ${path} (ENOENT): no server is running`, {
        cause: error,
      });
    case 'ECONNREFUSED':
      return new UnixConnectError(
        path,
        error.code,
        `nothing listens on ${path} (ECONNREFUSED): the socket is stale, its server is gone`,
        { cause: error },
      );
    case 'EAGAIN':
      return new UnixConnectError(
        path,
        error.code,
        `the server on ${path} is not accepting connections (EAGAIN, listen backlog full, ${attempts} attempts)`,
        { cause: error },
      );
    default:
      return error;
  }
}

/**
 * Connects to a unix socket. A full listen backlog (EAGAIN: the server is busy accepting a flood)
 * is retried with backoff; a missing socket (ENOENT) and a stale one (ECONNREFUSED) are reported
 * at once, each with its own `code`, so the caller can start a server (and remove a stale socket).
 * Only this helper knows the transport is a unix socket; everything else takes a Duplex.
 */
export async function connectUnix(path: string, options: ConnectUnixOptions = {}): Promise<net.Socket> {
  // ~3 s of retries: long enough to ride out a flood of connects on a loaded machine.
  const retries = options.retries ?? 60;
  let delay = FIRST_RETRY_MS;
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt(path);
    } catch (error) {
      const errno = error as NodeJS.ErrnoException;
      if (errno.code !== 'EAGAIN' || attempts > retries) throw describe(path, errno, attempts);
      options.onRetry?.(attempts, errno);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, LONGEST_RETRY_MS);
  }
}
