import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FuxError } from '../errors';
import { findCheckout, readRecord, realPath, WORKTREE_RECORD, type WorktreeRecord } from './checkout';
import { git, gitEnv, runGit } from './git';
import { copyIncluded, includedFiles } from './include';

/**
 * The git worktrees fux makes, one per agent: `fux new --worktree NAME` puts a checkout of branch
 * NAME under the worktree root and starts the command there, so agents working side by side on
 * one repository never edit the same files. What fux made is recorded in the worktree's own git
 * dir (WORKTREE_RECORD), so it survives a server restart and goes when git removes the worktree.
 */

export interface WorktreeSettings {
  /** `worktree_root`: where worktrees go; `{repo}` is the repository's directory name. */
  root: string;
  /** `worktree_setup`: a shell command run in a new worktree before its command starts. */
  setup: string | undefined;
}

export const DEFAULT_WORKTREE_ROOT = '../{repo}.worktrees';

/** A worktree ready for a pane. `undo` removes what `ensure` made (nothing when it was reused). */
export interface EnsuredWorktree {
  name: string;
  path: string;
  created: boolean;
  undo(): Promise<void>;
}

/** A fux worktree as `worktree list` shows it. */
export interface WorktreeStatus {
  name: string;
  branch: string | null;
  path: string;
  base: string;
  /** Files with uncommitted changes (untracked ones too). */
  changed: number;
  /** Commits on the branch that the base does not have. */
  ahead: number;
}

/** Output of a setup command kept for its error message. */
const SETUP_TAIL_LINES = 5;

export class Worktrees {
  /** One change at a time per repository, so two `new --worktree X` do not both make X. */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly settings: () => WorktreeSettings) {}

  /**
   * The worktree NAME of the repository `cwd` is in: fux's existing one (reused as it is), else a new one (branch
   * NAME, made from what `cwd` has checked out when the branch does not exist yet) with the
   * `.worktreeinclude` files copied and the setup command run. Anything that fails after git made
   * the worktree removes it again (and the branch, if it was made here): nothing is left half-made.
   */
  async ensure(cwd: string, name: string, env: Record<string, string>): Promise<EnsuredWorktree> {
    const repo = await repoOf(cwd);
    return this.locked(repo.top, async () => {
      await checkBranchName(cwd, name);
      const dir = this.dirFor(repo.top, name);
      const listed = await worktreeList(repo.top);
      // fux's worktree NAME, wherever it is and whatever its agent has checked out since.
      const mine = listed.find((w) => recordOf(w)?.name === name);
      if (mine) return { name, path: mine.path, created: false, undo: async () => undefined };
      const holder = listed.find((w) => w.branch === name);
      if (holder)
        throw new FuxError(
          'CONFLICT',
          `branch ${name} is checked out in ${holder.path}; a branch can be in one worktree only: pick another name, or start the command there with --cwd ${holder.path}`,
        );
      if (fs.existsSync(dir))
        throw new FuxError(
          'CONFLICT',
          `${dir} exists and is not fux's worktree for ${name}; move it away, or set worktree_root in config.toml`,
        );
      return this.create(cwd, repo.top, name, dir, env);
    });
  }

  private async create(
    cwd: string,
    repoTop: string,
    name: string,
    dir: string,
    env: Record<string, string>,
  ): Promise<EnsuredWorktree> {
    const from = findCheckout(cwd)!.top;
    const baseCommit = (
      await git(cwd, ['rev-parse', '--verify', 'HEAD^{commit}']).catch(() => {
        throw new FuxError(
          'PRECONDITION_FAILED',
          `${from} has no commit yet; commit something first, then make worktrees of it`,
        );
      })
    ).trim();
    const baseBranch = (await runGit(cwd, ['symbolic-ref', '-q', '--short', 'HEAD'])).stdout.trim();
    const branchExists =
      (await runGit(repoTop, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`])).code === 0;
    // The directories made for it go again with it (only while empty: another repository's
    // worktrees may share a root).
    const madeDirs = fs.mkdirSync(path.dirname(dir), { recursive: true });
    const removeMadeDirs = (): void => {
      if (madeDirs === undefined) return;
      for (let d = path.dirname(dir); d.startsWith(madeDirs); d = path.dirname(d)) {
        try {
          fs.rmdirSync(d);
        } catch {
          return;
        }
      }
    };
    try {
      await gitOrUserError(
        repoTop,
        branchExists ? ['worktree', 'add', dir, name] : ['worktree', 'add', '-b', name, dir, baseCommit],
      );
    } catch (err) {
      removeMadeDirs();
      throw err;
    }
    const undo = async (): Promise<void> => {
      await runGit(repoTop, ['worktree', 'remove', '--force', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
      await runGit(repoTop, ['worktree', 'prune']);
      if (!branchExists) await runGit(repoTop, ['branch', '-D', name]);
      removeMadeDirs();
    };
    try {
      const record: WorktreeRecord = { name, base: baseBranch || baseCommit, baseCommit };
      fs.writeFileSync(path.join(findCheckout(dir)!.gitDir, WORKTREE_RECORD), JSON.stringify(record) + '\n');
      copyIncluded(from, dir, await includedFiles(from));
      const setup = this.settings().setup;
      if (setup) await runSetup(setup, dir, { ...env, FUX_WORKTREE: name, FUX_REPO: repoTop });
    } catch (err) {
      await undo();
      const why = err instanceof Error ? err.message : String(err);
      throw new FuxError('PRECONDITION_FAILED', `worktree ${name} was not made (removed again): ${why}`);
    }
    return { name, path: dir, created: true, undo };
  }

  /** The worktrees fux made in the repository `cwd` is in, with their state. */
  async list(cwd: string): Promise<WorktreeStatus[]> {
    const repo = await repoOf(cwd);
    const out: WorktreeStatus[] = [];
    for (const w of await worktreeList(repo.top)) {
      const record = recordOf(w);
      if (!record) continue;
      const changed = (await git(w.path, ['status', '--porcelain', '-z'])).split('\0').filter(Boolean);
      const ahead = Number(
        (await git(w.path, ['rev-list', '--count', `${await baseOf(w.path, record)}..HEAD`])).trim(),
      );
      out.push({
        name: record.name,
        branch: w.branch,
        path: w.path,
        base: record.base,
        changed: changed.length,
        ahead,
      });
    }
    return out;
  }

  /** fux's worktree NAME of the repository `cwd` is in, or a NOT_FOUND that says how to see them. */
  async find(cwd: string, name: string): Promise<{ path: string; record: WorktreeRecord; repo: string }> {
    const repo = await repoOf(cwd);
    for (const w of await worktreeList(repo.top)) {
      const record = recordOf(w);
      if (record?.name === name) return { path: w.path, record, repo: repo.top };
    }
    throw new FuxError(
      'NOT_FOUND',
      `no fux worktree named ${name} in ${repo.top}; \`fux worktree list\` shows them`,
    );
  }

  /**
   * The worktree's changes against its base as `git diff` prints them: everything since the
   * merge-base with the base (commits and the working tree), then each untracked file as new.
   */
  async diff(
    cwd: string,
    name: string,
    color: boolean,
  ): Promise<{ text: string; path: string; base: string }> {
    const { path: dir, record } = await this.find(cwd, name);
    const colour = `--color=${color ? 'always' : 'never'}`;
    const since = (await git(dir, ['merge-base', await baseOf(dir, record), 'HEAD'])).trim();
    let text = await git(dir, ['diff', colour, since]);
    const untracked = (await git(dir, ['ls-files', '-z', '--others', '--exclude-standard']))
      .split('\0')
      .filter(Boolean);
    for (const file of untracked) {
      // --no-index exits 1 when the files differ, which they do.
      text += (await runGit(dir, ['diff', colour, '--no-index', '--', '/dev/null', file])).stdout;
    }
    return { text, path: dir, base: record.base };
  }

  /**
   * Remove fux's worktree NAME: refused while it has uncommitted changes unless `force`; `beforeRemove`
   * (closing its panes) runs once the refusal is ruled out. The branch stays, with its commits.
   */
  async remove(
    cwd: string,
    name: string,
    force: boolean,
    beforeRemove: (dir: string) => void,
  ): Promise<{ path: string; branch: string }> {
    const repo = await repoOf(cwd);
    return this.locked(repo.top, async () => {
      const { path: dir } = await this.find(cwd, name);
      const changed = (await git(dir, ['status', '--porcelain', '-z'])).split('\0').filter(Boolean);
      if (changed.length > 0 && !force)
        throw new FuxError(
          'PRECONDITION_FAILED',
          `worktree ${name} has uncommitted changes (${changed.length} file${changed.length === 1 ? '' : 's'}); commit them, or remove it with --force to discard them`,
        );
      beforeRemove(dir);
      await gitOrUserError(repo.top, ['worktree', 'remove', ...(force ? ['--force'] : []), dir]);
      return { path: dir, branch: name };
    });
  }

  /** Where worktree NAME of the repository at `repoTop` goes. */
  dirFor(repoTop: string, name: string): string {
    const root = this.settings().root.replaceAll('{repo}', path.basename(repoTop));
    const expanded = root === '~' || root.startsWith('~/') ? path.join(os.homedir(), root.slice(1)) : root;
    return path.resolve(repoTop, expanded, name);
  }

  private locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    void settled.then(() => {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    });
    return run;
  }
}

/** The repository `cwd` is in, or a clear error outside one. */
async function repoOf(cwd: string): Promise<{ top: string }> {
  if (!fs.existsSync(cwd))
    throw new FuxError('BAD_REQUEST', `no directory ${cwd}; give an existing one with --cwd`);
  const common = await runGit(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common.code !== 0)
    throw new FuxError(
      'PRECONDITION_FAILED',
      `${cwd} is not in a git repository; run it inside one, or give one with --cwd`,
    );
  const dir = common.stdout.trim();
  return { top: path.basename(dir) === '.git' ? path.dirname(dir) : dir };
}

async function checkBranchName(cwd: string, name: string): Promise<void> {
  const ok = (await runGit(cwd, ['check-ref-format', '--branch', name])).code === 0;
  if (!ok || name.startsWith('-'))
    throw new FuxError(
      'BAD_REQUEST',
      `${JSON.stringify(name)} is not a valid branch name (see \`git check-ref-format --help\`); use letters, digits, and - _ / .`,
    );
}

interface ListedWorktree {
  path: string;
  /** Its own git dir; undefined when its directory is gone (git calls it prunable). */
  gitDir: string | undefined;
  branch: string | null;
}

/** `git worktree list`, with each worktree's own git dir. */
async function worktreeList(repoTop: string): Promise<ListedWorktree[]> {
  const out: ListedWorktree[] = [];
  for (const block of (await git(repoTop, ['worktree', 'list', '--porcelain', '-z'])).split('\0\0')) {
    const fields = block.split('\0');
    const wt = fields.find((f) => f.startsWith('worktree '))?.slice('worktree '.length);
    if (!wt) continue;
    const ref = fields.find((f) => f.startsWith('branch '))?.slice('branch '.length);
    const checkout = findCheckout(wt);
    out.push({
      path: wt,
      gitDir: checkout && samePath(checkout.top, wt) ? checkout.gitDir : undefined,
      branch: ref ? ref.replace(/^refs\/heads\//, '') : null,
    });
  }
  return out;
}

function recordOf(w: ListedWorktree): WorktreeRecord | undefined {
  return w.gitDir === undefined ? undefined : readRecord(w.gitDir);
}

/** What the worktree is compared with: its base branch while it exists, else the commit it was made from. */
async function baseOf(dir: string, record: WorktreeRecord): Promise<string> {
  const exists =
    (await runGit(dir, ['rev-parse', '--verify', '--quiet', `${record.base}^{commit}`])).code === 0;
  return exists ? record.base : record.baseCommit;
}

/** A git step whose refusal is the user's to fix (a locked worktree, a path in the way): its message, as a CONFLICT. */
async function gitOrUserError(cwd: string, args: string[]): Promise<void> {
  const r = await runGit(cwd, args);
  if (r.code !== 0)
    throw new FuxError(
      'CONFLICT',
      `git ${args.slice(0, 2).join(' ')}: ${r.stderr.trim().split('\n').join('; ')}`,
    );
}

function samePath(a: string, b: string): boolean {
  return realPath(a) === realPath(b);
}

/** The setup command in the new worktree; a failure says its exit and the end of its output. */
function runSetup(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', command],
      { cwd, env: gitEnv(env), maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve();
        const tail = `${stdout}${stderr}`.trim().split('\n').slice(-SETUP_TAIL_LINES).join('\n');
        const how = typeof err.code === 'number' ? `exited with ${err.code}` : (err.signal ?? err.message);
        reject(new Error(`worktree_setup \`${command}\` ${how}${tail ? `:\n${tail}` : ''}`));
      },
    );
  });
}
