import { execFile } from 'node:child_process';

/**
 * The real `git`, run with an argument array (never a shell string, so a branch or path is never
 * read as shell syntax). The server's own GIT_* variables that pick a repository are dropped: the
 * repository is always the one `cwd` is in.
 */

/** Variables that would point git at another repository than the one `cwd` is in. */
const REPO_VARS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_PREFIX'];

/** Enough for `git diff` of a large change; the caller caps what it sends on. */
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.entries(base).filter(([k]) => !REPO_VARS.includes(k));
  return { ...Object.fromEntries(kept), GIT_TERMINAL_PROMPT: '0' };
}

/** Run git in `cwd`; resolves with its exit code and output whatever the code (a spawn failure rejects). */
export function runGit(cwd: string, args: readonly string[], input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd, env: gitEnv(), maxBuffer: MAX_OUTPUT, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') {
          reject(new Error(`cannot run git: ${err.message}`));
          return;
        }
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A git command that failed: its own first line of complaint. */
export class GitFailed extends Error {
  constructor(args: readonly string[], result: GitResult) {
    const why = result.stderr.trim().split('\n').slice(-3).join('; ') || `exit ${result.code}`;
    super(`git ${args[0]} failed: ${why}`);
  }
}

/** Run git and return its stdout; a non-zero exit throws GitFailed. */
export async function git(cwd: string, args: readonly string[], input?: string): Promise<string> {
  const result = await runGit(cwd, args, input);
  if (result.code !== 0) throw new GitFailed(args, result);
  return result.stdout;
}
