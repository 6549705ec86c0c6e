// Issue 13: one agent, one worktree. Real git in temp repositories, a real server on a private
// socket, the CLI as a user runs it: `--worktree` makes (or reuses) a worktree and starts the
// command there, every refusal leaves nothing behind, and `fux worktree` lists, diffs and removes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { until, type FuxHome } from '../helpers/home';
import { gitIn, makeRepo, worktreeHome } from './helpers';

// The setup command records each run, and fails for worktrees whose name says so.
const SETUP = `case "$FUX_WORKTREE" in fail-*) echo "setup broke" >&2; exit 3;; esac; echo "$FUX_WORKTREE" >> setup-ran.local`;

let home: FuxHome;
let fux: FuxClient;
let repo: string;
let root: string;

beforeAll(async () => {
  home = worktreeHome(`worktree_setup = '${SETUP}'\n`);
  await home.startServer();
  fux = await home.client();
});
afterAll(() => home.close());

let serial = 0;
beforeEach(() => {
  // A repository of its own per test, beside its worktree root.
  const dir = path.join(home.dir, `r${++serial}`);
  repo = path.join(dir, 'app');
  root = path.join(dir, 'app.worktrees');
  makeRepo(home, repo, {
    'README.md': 'app\n',
    '.gitignore': '.env\n*.local\n',
    '.worktreeinclude': '.env\nextra.txt\n',
  });
  fs.writeFileSync(path.join(repo, '.env'), 'TOKEN=1\n'); // ignored and listed: copied
  fs.writeFileSync(path.join(repo, 'notes.local'), 'mine\n'); // ignored, not listed: stays
  fs.writeFileSync(path.join(repo, 'extra.txt'), 'x\n'); // listed but not ignored: stays
});

const fuxIn = (cwd: string, ...args: string[]): ReturnType<FuxHome['cli']> => home.cli(args, { cwd });

async function panes(): Promise<
  Array<{ id: number; cwd: string; repo: string | null; branch: string | null; worktree: string | null }>
> {
  return (await fux.list.query({})).workspaces.flatMap((w) => w.panes);
}

const branches = (): string[] =>
  gitIn(home, repo, ['branch', '--format=%(refname:short)']).split('\n').filter(Boolean).sort();
const worktreeCount = (): number =>
  gitIn(home, repo, ['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;

async function killAll(): Promise<void> {
  for (const p of await panes()) await fux.kill.mutate({ id: p.id });
  await until(async () => (await panes()).length === 0, 10_000, 'every pane closed');
}
afterEach(killAll);

describe('fux new --worktree', () => {
  test('makes the worktree on a new branch, copies the ignored files .worktreeinclude lists, runs the setup, and starts the command there', async () => {
    const r = fuxIn(repo, 'new', '--worktree', 'feat-a', '--', 'sleep', '60');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const dir = path.join(root, 'feat-a');
    expect(gitIn(home, dir, ['rev-parse', '--abbrev-ref', 'HEAD']).trim()).toBe('feat-a');
    expect(fs.readFileSync(path.join(dir, '.env'), 'utf8')).toBe('TOKEN=1\n');
    expect(fs.existsSync(path.join(dir, 'notes.local'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'extra.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'setup-ran.local'), 'utf8')).toBe('feat-a\n');
    // The pane's cwd is its program's, read from /proc: right after the start it may be the parent's still.
    const id = Number(r.stdout.trim());
    const real = fs.realpathSync(dir);
    await until(
      async () => (await panes()).find((p) => p.id === id)?.cwd === real,
      10_000,
      'the pane in the worktree',
    );
  });

  test('reuses its worktree: a second pane on the same name starts there without making or setting up anything again', async () => {
    expect(fuxIn(repo, 'new', '--worktree', 'feat-b', '--', 'sleep', '60').code).toBe(0);
    const again = fuxIn(repo, 'split', 'v', '--worktree', 'feat-b', '--', 'sleep', '60');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const dir = fs.realpathSync(path.join(root, 'feat-b'));
    await until(
      async () => (await panes()).filter((p) => p.cwd === dir).length === 2,
      10_000,
      'two panes there',
    );
    expect(fs.readFileSync(path.join(dir, 'setup-ran.local'), 'utf8')).toBe('feat-b\n');
    expect(worktreeCount()).toBe(2);
    // Its agent may switch branches there: it is still fux's worktree feat-b.
    gitIn(home, dir, ['switch', '-q', '-c', 'feat-b-2']);
    expect(fuxIn(repo, 'new', '--worktree', 'feat-b', '--', 'sleep', '60').code).toBe(0);
    await until(
      async () => (await panes()).filter((p) => p.cwd === dir).length === 3,
      10_000,
      'three panes there',
    );
    expect(worktreeCount()).toBe(2);
  });

  test('two panes asking for one new worktree at once: one makes it, the other reuses it', async () => {
    const ask = (): Promise<{ id: number }> =>
      fux.new.mutate({ argv: ['sleep', '60'], cwd: repo, env: home.env, worktree: 'feat-race' });
    const [a, b] = await Promise.all([ask(), ask()]);
    expect(a.id).not.toBe(b.id);
    expect(worktreeCount()).toBe(2);
    expect(fs.readFileSync(path.join(root, 'feat-race', 'setup-ran.local'), 'utf8')).toBe('feat-race\n');
  });

  test('list --json gives each pane its repository, branch and fux worktree (nulls outside a checkout)', async () => {
    fuxIn(repo, 'new', '--worktree', 'feat-c', '--', 'sleep', '60');
    fuxIn(repo, 'new', '--', 'sleep', '60');
    fuxIn(home.dir, 'new', '--', 'sleep', '60');
    const started = [fs.realpathSync(path.join(root, 'feat-c')), repo, home.dir].join();
    await until(
      async () => (await panes()).map((p) => p.cwd).join() === started,
      10_000,
      'the panes started',
    );
    const listed = JSON.parse(fuxIn(repo, 'list', '--json').stdout) as {
      workspaces: Array<{ panes: unknown[] }>;
    };
    const fields = listed.workspaces
      .flatMap((w) => w.panes as Array<Record<string, unknown>>)
      .map(({ repo: r, branch, worktree }) => ({ repo: r, branch, worktree }));
    expect(fuxIn(repo, 'list').stdout).toMatch(/sleep 60 +\S+feat-c +⎇ feat-c\n.*sleep 60 +\S+app +⎇ main\n/);
    expect(fields).toEqual([
      { repo, branch: 'feat-c', worktree: 'feat-c' },
      { repo, branch: 'main', worktree: null },
      { repo: null, branch: null, worktree: null },
    ]);
  });
});

describe('a worktree that cannot be made leaves nothing behind: no directory, no branch, no pane', () => {
  const nothingLeft = async (): Promise<void> => {
    expect(fs.existsSync(root)).toBe(false);
    expect(branches()).toEqual(['main']);
    expect(worktreeCount()).toBe(1);
    expect(await panes()).toEqual([]);
  };

  test('outside a repository', async () => {
    const outside = fs.mkdtempSync(path.join(home.dir, 'plain-'));
    const r = fuxIn(outside, 'new', '--worktree', 'feat', '--', 'sleep', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux new: ${outside} is not in a git repository; run it inside one, or give one with --cwd\n`,
    );
    expect(fs.existsSync(path.join(home.dir, 'plain.worktrees'))).toBe(false);
    await nothingLeft();
  });

  test.each(['bad..name', 'no spaces', '-dash', 'end.lock'])('an invalid branch name: %s', async (name) => {
    const r = fuxIn(repo, 'split', 'h', `--worktree=${name}`, '--', 'sleep', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${JSON.stringify(name)} is not a valid branch name`);
    await nothingLeft();
  });

  test('a branch checked out in another worktree', async () => {
    const r = fuxIn(repo, 'new', '--worktree', 'main', '--', 'sleep', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`branch main is checked out in ${repo}`);
    await nothingLeft();
  });

  test('a directory in the way that is not its worktree (and it stays as it was)', async () => {
    fs.mkdirSync(path.join(root, 'feat-d'), { recursive: true });
    fs.writeFileSync(path.join(root, 'feat-d', 'keep.txt'), 'keep\n');
    const r = fuxIn(repo, 'new', '--worktree', 'feat-d', '--', 'sleep', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path.join(root, 'feat-d')} exists and is not fux's worktree for feat-d`);
    expect(fs.readdirSync(path.join(root, 'feat-d'))).toEqual(['keep.txt']);
    expect(branches()).toEqual(['main']);
    expect(await panes()).toEqual([]);
  });

  test('a setup command that fails: the worktree and its new branch are removed, and the error says why', async () => {
    // A name with a slash: the directories made for it go as well.
    const r = fuxIn(repo, 'new', '--worktree', 'fail-setup/nested', '--', 'sleep', '60');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('worktree fail-setup/nested was not made (removed again)');
    expect(r.stderr).toContain('exited with 3');
    expect(r.stderr).toContain('setup broke');
    await nothingLeft();
  });

  test('a command that cannot start', async () => {
    const r = fuxIn(repo, 'new', '--worktree', 'feat-e', '--', path.join(home.dir, 'no-such-program'));
    expect(r.code).toBe(1);
    await nothingLeft();
  });
});

describe('fux worktree list, diff, remove', () => {
  test('list shows each worktree fux made with its state (clean, changed, ahead N) and its panes', async () => {
    const id = Number(fuxIn(repo, 'new', '--worktree', 'feat-f', '--', 'sleep', '60').stdout.trim());
    const dir = path.join(root, 'feat-f');
    // A worktree made by hand is not fux's, and not listed.
    gitIn(home, repo, ['worktree', 'add', '-q', '-b', 'by-hand', path.join(root, 'by-hand')]);
    const state = (): Array<{ state: string; panes: unknown[] }> =>
      (
        JSON.parse(fuxIn(repo, 'worktree', 'list', '--json').stdout) as {
          worktrees: Array<{ state: string; panes: unknown[] }>;
        }
      ).worktrees;
    await until(() => state()[0]?.panes.length === 1, 10_000, 'the pane in the worktree');
    expect(state()).toMatchObject([
      { name: 'feat-f', branch: 'feat-f', base: 'main', state: 'clean', panes: [{ id, workspace: 'main' }] },
    ]);
    fs.writeFileSync(path.join(dir, 'README.md'), 'app, changed\n');
    expect(state()[0]!.state).toBe('changed');
    gitIn(home, dir, ['commit', '-qam', 'change']);
    expect(state()[0]!.state).toBe('ahead 1');
    expect(fuxIn(repo, 'worktree', 'list').stdout).toBe(
      `feat-f  ahead 1  (from main)  panes ${id}  ${fs.realpathSync(dir)}\n`,
    );
  });

  test('diff prints plain git diff output against the base: the commits, the uncommitted changes, new files', async () => {
    fuxIn(repo, 'new', '--worktree', 'feat-g', '--', 'sleep', '60');
    const dir = path.join(root, 'feat-g');
    fs.writeFileSync(path.join(dir, 'README.md'), 'app\ncommitted\n');
    gitIn(home, dir, ['commit', '-qam', 'one']);
    fs.appendFileSync(path.join(dir, 'README.md'), 'not yet\n');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'fresh\n');
    // The base moves on meanwhile: its own commits are not the worktree's changes.
    fs.writeFileSync(path.join(repo, 'other.txt'), 'main only\n');
    gitIn(home, repo, ['add', 'other.txt']);
    gitIn(home, repo, ['commit', '-qm', 'main moves']);
    const r = fuxIn(repo, 'worktree', 'diff', 'feat-g');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).toContain('+committed\n+not yet\n');
    expect(r.stdout).toContain('diff --git a/new.txt b/new.txt\nnew file mode 100644');
    expect(r.stdout).toContain('+fresh\n');
    expect(r.stdout).not.toContain('other.txt');
  });

  test('remove is refused with uncommitted changes, and --force removes it after closing its panes; the branch stays', async () => {
    const id = Number(fuxIn(repo, 'new', '--worktree', 'feat-h', '--', 'sleep', '60').stdout.trim());
    const dir = path.join(root, 'feat-h');
    fs.writeFileSync(path.join(dir, 'wip.txt'), 'work in progress\n');

    const refused = fuxIn(repo, 'worktree', 'remove', 'feat-h', '--yes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'fux worktree remove: worktree feat-h has uncommitted changes (1 file); commit them, or remove it with --force to discard them\n',
    );
    expect(fs.existsSync(path.join(dir, 'wip.txt'))).toBe(true);
    expect((await panes()).map((p) => p.id)).toEqual([id]);

    const removed = fuxIn(repo, 'worktree', 'remove', 'feat-h', '--yes', '--force');
    expect(removed.stderr).toBe('');
    expect(removed.stdout).toContain(`closed pane ${id}; branch feat-h stays`);
    expect(fs.existsSync(dir)).toBe(false);
    expect(worktreeCount()).toBe(1);
    expect(branches()).toEqual(['feat-h', 'main']);
    await until(async () => (await panes()).length === 0, 10_000, 'the worktree pane closed');
  });

  test('remove asks first, and without a terminal to ask on it refuses unless --yes', async () => {
    fuxIn(repo, 'new', '--worktree', 'feat-i', '--', 'sleep', '60');
    const r = fuxIn(repo, 'worktree', 'remove', 'feat-i');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not asking without a terminal: `fux worktree remove feat-i --yes`');
    expect(fs.existsSync(path.join(root, 'feat-i'))).toBe(true);
    expect(fuxIn(repo, 'worktree', 'remove', 'feat-i', '--yes').code).toBe(0);
    expect(fs.existsSync(path.join(root, 'feat-i'))).toBe(false);
  });

  test('a name fux made no worktree for is NOT_FOUND with a pointer to the list', () => {
    const r = fuxIn(repo, 'worktree', 'diff', 'nope');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux worktree diff: no fux worktree named nope in ${repo}; \`fux worktree list\` shows them\n`,
    );
  });
});

test('worktree_root places the worktrees: ~ is home, {repo} the repository name', async () => {
  const other = worktreeHome('worktree_root = "~/trees/{repo}"\n');
  try {
    await other.startServer();
    const dir = path.join(other.dir, 'src', 'app');
    makeRepo(other, dir, { 'README.md': 'app\n' });
    const r = other.cli(['new', '--worktree', 'feat-root', '--', 'sleep', '60'], { cwd: dir });
    expect(r.stderr).toBe('');
    const userHome = other.env.HOME!;
    expect(
      gitIn(other, path.join(userHome, 'trees', 'app', 'feat-root'), ['branch', '--show-current']).trim(),
    ).toBe('feat-root');
  } finally {
    await other.close();
  }
});
