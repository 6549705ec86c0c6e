import * as path from 'node:path';
import { definedEnv } from '../protocol/env';

/** The caller's environment, only the variables that are set: what its panes start with. */
export function callerEnv(): Record<string, string> {
  return definedEnv(process.env);
}

/** A directory the caller names (`--cwd`), else its own, as an absolute path for the server. */
export function callerDir(cwd: string | undefined): string {
  return path.resolve(cwd ?? process.cwd());
}

/** The caller's cwd and environment, as `new`/`split` pass them, with `--cwd`/`--env` applied. */
export function launchInput(
  flags: { cwd?: string; env?: string[] },
  argv: string[],
): { argv?: string[]; cwd: string; env: Record<string, string> } {
  const env = callerEnv();
  for (const kv of flags.env ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0)
      throw new Error(`--env ${JSON.stringify(kv)} is not KEY=VALUE; write it like --env EDITOR=vim`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return { argv: argv.length ? argv : undefined, cwd: callerDir(flags.cwd), env };
}
