import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, GitFailed, runGit } from './git';

/**
 * `.worktreeinclude`: gitignore-style patterns, at the top of the checkout a worktree is made
 * from, naming the ignored files a new worktree needs and git would not bring (`.env`, local
 * certificates). A file is copied only if it matches and git ignores it: a tracked or merely
 * untracked file is the branch's business, not this list's.
 */
export const INCLUDE_FILE = '.worktreeinclude';

/** The files of `from` to copy (relative paths): untracked, matching `.worktreeinclude`, and ignored by git. */
export async function includedFiles(from: string): Promise<string[]> {
  const list = path.join(from, INCLUDE_FILE);
  if (!fs.existsSync(list)) return [];
  // Untracked files that the include list's patterns match (read as ignore rules, alone).
  const matching = split0(
    await git(from, ['ls-files', '-z', '--others', '--ignored', `--exclude-from=${list}`]),
  );
  if (matching.length === 0) return [];
  // Of those, the ones git's own ignore rules ignore. check-ignore exits 1 when none is.
  const args = ['check-ignore', '-z', '--stdin'];
  const ignored = await runGit(from, args, matching.join('\0') + '\0');
  if (ignored.code > 1) throw new GitFailed(args, ignored);
  return split0(ignored.stdout);
}

/** Copy `files` (relative to `from`) to the same places under `to`; returns how many. */
export function copyIncluded(from: string, to: string, files: readonly string[]): number {
  for (const rel of files) {
    const dest = path.join(to, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.cpSync(path.join(from, rel), dest, { verbatimSymlinks: true, preserveTimestamps: true });
  }
  return files.length;
}

function split0(text: string): string[] {
  return text.split('\0').filter((s) => s !== '');
}
