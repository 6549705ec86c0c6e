import { readFileSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Which git checkout a directory is in, read from the files git keeps (`.git`, `HEAD`,
 * `commondir`) without running git: cheap enough for `fux list` and for following a pane's
 * directory as it changes.
 */

/** A checkout: a repository's main working tree or one of its linked worktrees. */
export interface Checkout {
  /** The top directory of this checkout. */
  top: string;
  /** Its own git directory (`.git`, or `.git/worktrees/ID` for a linked worktree). */
  gitDir: string;
  /** The repository's shared git directory. */
  commonDir: string;
}

/** What `list` and the status line say of a pane's checkout. */
export interface CheckoutInfo {
  /** The repository: its main checkout's top directory. */
  repo: string;
  /** The branch checked out; null when HEAD is detached. */
  branch: string | null;
  /** The name of the fux worktree this checkout is, null when fux did not make it. */
  worktree: string | null;
}

/** Where fux records a worktree it made (in the worktree's own git dir, so `git worktree remove` takes it too). */
export const WORKTREE_RECORD = 'fux-worktree.json';

/** The path with its symlinks resolved (as /proc and git report directories), else as it is. */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function isDir(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch {
    return undefined;
  }
}

/** The checkout `dir` is in, found by walking up to the first `.git`; undefined outside one. */
export function findCheckout(dir: string): Checkout | undefined {
  for (let d = path.resolve(dir); ;) {
    const dotGit = path.join(d, '.git');
    const kind = isDir(dotGit);
    if (kind === true) return { top: d, gitDir: dotGit, commonDir: dotGit };
    if (kind === false) {
      // A linked worktree (or a submodule): `.git` is a file naming the git dir.
      const m = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '');
      if (m) {
        const gitDir = path.resolve(d, m[1]!.trim());
        const common = readText(path.join(gitDir, 'commondir'))?.trim();
        return { top: d, gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
      }
    }
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/** The repository's main checkout: the directory that holds its shared `.git`. */
export function repoTop(c: Checkout): string {
  return path.basename(c.commonDir) === '.git' ? path.dirname(c.commonDir) : c.commonDir;
}

/** The branch HEAD names, null when detached; undefined when HEAD cannot be read (the checkout is gone). */
export function headBranch(c: Checkout): string | null | undefined {
  const head = readText(path.join(c.gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  const m = /^ref: refs\/heads\/(.+)$/m.exec(head);
  return m ? m[1]!.trim() : null;
}

/** What fux recorded when it made this worktree. */
export interface WorktreeRecord {
  name: string;
  /** The branch (or commit, when detached) the worktree was made from: what `diff` compares with. */
  base: string;
  baseCommit: string;
}

export function readRecord(gitDir: string): WorktreeRecord | undefined {
  const text = readText(path.join(gitDir, WORKTREE_RECORD));
  if (text === undefined) return undefined;
  try {
    const r = JSON.parse(text) as Partial<WorktreeRecord>;
    if (typeof r.name === 'string' && typeof r.base === 'string' && typeof r.baseCommit === 'string')
      return { name: r.name, base: r.base, baseCommit: r.baseCommit };
  } catch {
    // A record that is not ours to read: the worktree is not fux's.
  }
  return undefined;
}

/** The checkout `c` as `list` shows it, or undefined when it is gone. */
export function describeCheckout(c: Checkout): CheckoutInfo | undefined {
  const branch = headBranch(c);
  if (branch === undefined) return undefined;
  return { repo: repoTop(c), branch, worktree: readRecord(c.gitDir)?.name ?? null };
}

/** The checkout info of a directory: null outside a git checkout. */
export function checkoutInfo(dir: string): CheckoutInfo | null {
  const c = findCheckout(dir);
  return (c && describeCheckout(c)) ?? null;
}
