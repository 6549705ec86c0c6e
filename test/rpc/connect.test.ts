import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectUnix, UnixConnectError } from '../../src/rpc';

let dir: string;
const sockets: net.Socket[] = [];
let listener: ChildProcessWithoutNullStreams | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-connect-'));
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  listener?.kill();
  listener = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function failureOf(connecting: Promise<net.Socket>): Promise<UnixConnectError> {
  try {
    sockets.push(await connecting);
  } catch (error) {
    if (error instanceof UnixConnectError) return error;
    throw error;
  }
  throw new Error('the connection succeeded');
}

/**
 * A listener with a backlog of one that accepts nothing until told to: Node always accepts, so a
 * full backlog needs another program. Python's socket module is the smallest one at hand.
 */
const BUSY_LISTENER = `
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(0)
print("listening", flush=True)
sys.stdin.readline()
held = []
while True:
    held.append(s.accept()[0])
`;

async function startBusyListener(socketPath: string): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn('python3', ['-c', BUSY_LISTENER, socketPath]);
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return child;
}

/** Connects until the backlog refuses one with EAGAIN; the accepted-into-backlog ones are kept. */
async function fillBacklog(socketPath: string): Promise<void> {
  for (let attempt = 0; attempt < 64; attempt++) {
    const outcome = await new Promise<string>((resolve) => {
      const socket = net.createConnection({ path: socketPath });
      socket.once('connect', () => {
        sockets.push(socket);
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    if (outcome === 'EAGAIN') return;
  }
  throw new Error('the backlog never filled');
}

describe('connectUnix', () => {
  it('connects to a listening socket', async () => {
    const socketPath = path.join(dir, 'ok.sock');
    const server = net.createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const socket = await connectUnix(socketPath);
    sockets.push(socket);
    const greeting = await new Promise<string>((resolve) =>
      socket.once('data', (data) => resolve(String(data))),
    );
    expect(greeting).toBe('hello\n');
    await new Promise((resolve) => server.close(resolve));
  });

  it('reports a missing socket as ENOENT at once, so the caller can start a server', async () => {
    const socketPath = path.join(dir, 'missing.sock');
    let retries = 0;
    const error = await failureOf(connectUnix(socketPath, { onRetry: () => retries++ }));
    expect(error.code).toBe('ENOENT');
    expect(error.message).toBe(`no socket at ${socketPath} (ENOENT): no server is running`);
    expect(retries).toBe(0);
  });

  it('reports a socket nobody listens on as ECONNREFUSED, so the caller can replace it', async () => {
    const socketPath = path.join(dir, 'stale.sock');
    // A socket file left behind by a server that is gone (bound, never listening, closed).
    const made = spawnSync('python3', [
      '-c',
      'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()',
      socketPath,
    ]);
    expect(made.status).toBe(0);
    const error = await failureOf(connectUnix(socketPath));
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toContain('the socket is stale');
  });

  it('gives up with EAGAIN after 3 retries when the listen backlog stays full', async () => {
    const socketPath = path.join(dir, 'busy.sock');
    listener = await startBusyListener(socketPath);
    await fillBacklog(socketPath);
    const retried: number[] = [];
    const error = await failureOf(
      connectUnix(socketPath, { retries: 3, onRetry: (attempt) => retried.push(attempt) }),
    );
    expect(error.code).toBe('EAGAIN');
    expect(error.message).toContain('listen backlog full, 4 attempts');
    expect(retried).toEqual([1, 2, 3]);
  });

  it('retries while the backlog is full and connects once the server accepts again', async () => {
    const socketPath = path.join(dir, 'busy.sock');
    const busy = await startBusyListener(socketPath);
    listener = busy;
    await fillBacklog(socketPath);
    const socket = await connectUnix(socketPath, {
      retries: 50,
      // The server catches up only after the first refusal, so success proves the retry.
      onRetry: (attempt) => {
        if (attempt === 1) busy.stdin.write('accept\n');
      },
    });
    sockets.push(socket);
    expect(socket.readyState).toBe('open');
  });
});
