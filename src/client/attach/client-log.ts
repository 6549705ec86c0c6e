import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveSocketPath, runtimePaths } from '../../paths';

/** Where an attach client writes what went wrong inside it: beside the server's log, in the state dir. */
export function clientLogPath(env: Record<string, string | undefined> = process.env): string {
  return path.join(runtimePaths(resolveSocketPath(undefined, env), env).stateDir, 'client.log');
}

/**
 * Append one entry to the client log. The terminal is the client's screen, so this is the only
 * place a stack can go; a log that cannot be written is given up quietly (the user still sees
 * the one-line notice).
 */
export function appendClientLog(file: string, text: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(file, `${new Date().toISOString()} pid ${process.pid} ${text}\n`, { mode: 0o600 });
  } catch {
    // Nowhere else to report it: the notice on the status line stands.
  }
}
