/** Runtime paths, shared by the server (where to listen) and the client (where to connect). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

/** A refusal to use a directory someone else could tamper with. */
export class UnsafeDirectoryError extends Error {}

/**
 * Create the socket's directory 0700 if missing, and refuse one that is not ours or that others can
 * enter: whoever can write there can replace the socket and impersonate the server.
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new UnsafeDirectoryError(
      `${dir} belongs to uid ${st.uid}, not to you (uid ${uid}); remove it or set FUX_SOCKET to a path in a directory of your own`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    throw new UnsafeDirectoryError(
      `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); run \`chmod 700 ${dir}\` or set FUX_SOCKET elsewhere`,
    );
  }
}
