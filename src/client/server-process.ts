import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir, runtimePaths } from '../paths';

/** The server's entry point in this package (dist/server/main.js; this file is dist/client/server-process.js). */
export function serverEntry(): string {
  return path.join(__dirname, '..', 'server', 'main.js');
}

/**
 * Start a server in the background for `socket`. It detaches (its own session, no terminal, output
 * to its log), so closing the terminal that started it does not end it. A race of two starts is
 * settled by the server's lock: the loser exits and both callers reach the winner.
 */
export function spawnServer(socket: string): ChildProcess {
  // Refuse an unsafe socket directory here too, so the user sees why rather than a start timeout.
  ensurePrivateDir(path.dirname(socket));
  const log = serverLog(socket);
  fs.mkdirSync(path.dirname(log), { recursive: true, mode: 0o700 });
  // Whatever the server prints before its own log is open (a crash at load) lands in the log too.
  const out = fs.openSync(log, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [serverEntry(), '--socket', socket], {
      detached: true,
      stdio: ['ignore', out, out],
      env: process.env,
      cwd: '/',
    });
    child.unref();
    return child;
  } finally {
    fs.closeSync(out);
  }
}

/** The last lines of the server log, to show with a failed start. */
export function logTail(socket: string, lines = 5): string {
  try {
    return fs.readFileSync(serverLog(socket), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export function serverLog(socket: string): string {
  return runtimePaths(socket).log;
}

/**
 * `fux serve`: the same server in the foreground, logging to stderr as well. It runs as a child so
 * the CLI stays a client of the server module.
 */
export function runServerForeground(socket: string | undefined): Promise<number> {
  const args = [serverEntry(), '--foreground'];
  if (socket) args.push('--socket', socket);
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: process.env });
  // Pass signals on (stopping twice is harmless), so `kill <this pid>` stops the server cleanly.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
