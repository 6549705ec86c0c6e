/** Runtime paths, shared by the server (where to listen) and the client (where to connect). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeDirs } from './fs-failure';

/** Where the server listens and keeps its files (DESIGN.md §4). */
export interface RuntimePaths {
  socket: string;
  /** Held by the running server; its content is the server's pid. */
  lock: string;
  stateDir: string;
  log: string;
  configDir: string;
}

type Env = Record<string, string | undefined>;

/** The default socket: $XDG_RUNTIME_DIR/fux, else /tmp/fux-$UID, else (macOS) ~/Library/Caches/fux-runtime/fux. */
export function defaultSocketPath(env: Env = process.env): string {
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'fux', 'fux.sock');
  if (process.platform === 'darwin') {
    return path.join(os.homedir(), 'Library', 'Caches', 'fux-runtime', 'fux', 'fux.sock');
  }
  return path.join('/tmp', `fux-${process.getuid?.() ?? 0}`, 'fux.sock');
}

export function resolveSocketPath(explicit: string | undefined, env: Env = process.env): string {
  return path.resolve(explicit || env.FUX_SOCKET || defaultSocketPath(env));
}

function xdg(env: Env, key: string, fallback: string[]): string {
  const base = env[key];
  return base && path.isAbsolute(base) ? base : path.join(os.homedir(), ...fallback);
}

export function runtimePaths(socket: string, env: Env = process.env): RuntimePaths {
  const stateDir = path.join(xdg(env, 'XDG_STATE_HOME', ['.local', 'state']), 'fux');
  return {
    socket,
    lock: `${socket}.pid`,
    stateDir,
    log: path.join(stateDir, 'server.log'),
    configDir: path.join(xdg(env, 'XDG_CONFIG_HOME', ['.config']), 'fux'),
  };
}

/** A refusal to use a socket, or its directory, that someone else could have put there. */
export class UnsafeSocketError extends Error {}

const myUid = (): number | undefined => process.getuid?.();

/**
 * Refuse a socket directory that is not a real directory of ours closed to everyone else: whoever
 * can write there, or points a symbolic link there, can put their own server in place of ours. As
 * tmux does, the directory itself is `lstat`ed (a link is refused, not followed); the directories
 * above it are the system's (/tmp, $XDG_RUNTIME_DIR) or the user's own choice (FUX_SOCKET).
 */
export function checkPrivateDir(dir: string): void {
  const st = fs.lstatSync(dir);
  const elsewhere = 'remove it or set FUX_SOCKET to a path in a directory of your own';
  if (st.isSymbolicLink()) {
    throw new UnsafeSocketError(`${dir} is a symbolic link, not a directory of yours; ${elsewhere}`);
  }
  if (!st.isDirectory()) throw new UnsafeSocketError(`${dir} is not a directory; ${elsewhere}`);
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) {
    throw new UnsafeSocketError(`${dir} belongs to uid ${st.uid}, not to you (uid ${uid}); ${elsewhere}`);
  }
  if ((st.mode & 0o077) !== 0) {
    throw new UnsafeSocketError(
      `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); run \`chmod 700 ${dir}\` or set FUX_SOCKET elsewhere`,
    );
  }
}

/** Create the socket's directory 0700 if missing (the server, and a client starting one), then check it. */
export function ensurePrivateDir(dir: string): void {
  // makeDirs says what could not be created and why (a read-only $XDG_RUNTIME_DIR), not ENOENT.
  makeDirs(dir, 0o700);
  checkPrivateDir(dir);
}

/**
 * What a client checks before it connects: the socket's directory, and that the socket there is
 * ours. Nothing there yet is fine: the connect then finds no server and starts one, which creates
 * and checks the directory itself.
 */
export function checkSocketBeforeConnect(socket: string): void {
  try {
    checkPrivateDir(path.dirname(socket));
    const st = fs.lstatSync(socket);
    const uid = myUid();
    if (uid !== undefined && st.uid !== uid) {
      throw new UnsafeSocketError(
        `${socket} belongs to uid ${st.uid}, not to you (uid ${uid}); refusing to talk to it: remove it or set FUX_SOCKET elsewhere`,
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * What a client checks once connected: the kernel's word on who listens (`peer`, from
 * src/peer-cred.ts; undefined where it cannot be asked).
 */
export function checkSocketPeer(socket: string, peer: number | undefined): void {
  const uid = myUid();
  if (peer === undefined || uid === undefined || peer === uid) return;
  throw new UnsafeSocketError(
    `the server on ${socket} runs as uid ${peer}, not as you (uid ${uid}); refusing to talk to it: remove ${path.dirname(socket)} or set FUX_SOCKET to a path in a directory of your own`,
  );
}
