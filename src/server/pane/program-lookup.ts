import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

// What glibc's execvp searches when PATH is unset (confstr _CS_PATH).
const DEFAULT_SEARCH_PATH = '/bin:/usr/bin';

/**
 * node-pty forks before it execs, so a program that cannot start does not throw: the child prints
 * "execvp(3) failed" into the pty and exits 1. Checking first, the way execvp will search, turns
 * that into an error the caller can show ("cannot run 'nosuchcmd': not found").
 */
export function assertRunnable(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
): void {
  const program = argv[0];
  if (program === undefined || program === '') throw new Error('cannot run an empty command');
  if (!isDirectory(cwd)) throw new Error(`cannot run '${program}': no such directory '${cwd}'`);
  const verdict = program.includes('/')
    ? judge(path.resolve(cwd, program))
    : search(program, cwd, env.PATH ?? DEFAULT_SEARCH_PATH);
  if (verdict !== 'runnable') throw new Error(`cannot run '${program}': ${verdict}`);
}

type Verdict = 'runnable' | 'not found' | 'permission denied';

function search(program: string, cwd: string, searchPath: string): Verdict {
  let verdict: Verdict = 'not found';
  for (const dir of searchPath.split(':')) {
    // An empty PATH entry means the current directory, which for the child is its cwd.
    const found = judge(path.resolve(cwd, dir, program));
    if (found === 'runnable') return found;
    // Like execvp, a match we may not execute is reported only if nothing later in PATH runs.
    if (found === 'permission denied') verdict = found;
  }
  return verdict;
}

function judge(file: string): Verdict {
  try {
    if (!statSync(file).isFile()) return 'not found';
  } catch {
    return 'not found';
  }
  try {
    accessSync(file, constants.X_OK);
    return 'runnable';
  } catch {
    return 'permission denied';
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
