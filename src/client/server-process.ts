import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir, runtimePaths } from '../paths';
import { openServerLog } from '../state-dir';

/** The server's entry point in this package (dist/server/main.js; this file is dist/client/server-process.js). */
export function serverEntry(): string {
  return path.join(__dirname, '..', 'server', 'main.js');
}

/**
 * `gc()` for the server's memory return: a server that goes quiet after panes closed collects
 * their garbage then and hands the pages back (src/server/memory/memory-return.ts), where V8 alone
 * would keep them until it next needed room.
 */
const EXPOSE_GC = '--expose-gc';

/**
 * Node's own options for the server process. V8 grows the young generation to two semi-spaces of
 * 16 MiB while many panes flood, and keeps them committed afterwards: 32 MiB of resident set for
 * objects that nearly all die young (a parsed batch, a frame, a rendered row). With semi-spaces of
 * 4 MiB that is 8 MiB (B10, 40 panes); a `seq` flood's parse then takes 38 scavenges instead of
 * 24 for the same GC time, and no more CPU (median 2.61 s against 2.79 s, 8 runs each).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=4', EXPOSE_GC];

/**
 * Start a server in the background for `socket`. It detaches (its own session, no terminal, output
 * to its log), so closing the terminal that started it does not end it. A race of two starts is
 * settled by the server's lock: the loser exits and both callers reach the winner.
 */
export function spawnServer(socket: string): ChildProcess {
  // Refuse an unsafe socket directory here too, so the user sees why rather than a start timeout.
  ensurePrivateDir(path.dirname(socket));
  const { stateDir, log } = runtimePaths(socket);
  // Whatever the server prints before its own log is open (a crash at load) lands in the log too.
  const out = openServerLog(stateDir, log);
  try {
    const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, serverEntry(), '--socket', socket], {
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
  const args = [...SERVER_NODE_OPTIONS, serverEntry(), '--foreground'];
  if (socket) args.push('--socket', socket);
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: process.env });
  // Pass signals on (stopping twice is harmless), so `kill <this pid>` stops the server cleanly.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
