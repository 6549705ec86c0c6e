// Issue 13 in the attach client, in a real terminal (tmux is the user's terminal): the status line
// shows the focused pane's branch, follows a `cd` into another checkout, and prefix W lists the
// panes in worktrees with their agents' states; Enter focuses the chosen pane.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { fuxBin, until, type FuxHome } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';
import { makeRepo, worktreeHome } from './helpers';

let home: FuxHome;
let outer: OuterTmux;
let fux: FuxClient;

beforeEach(async () => {
  home = worktreeHome();
  await home.startServer();
  fux = await home.client();
  outer = new OuterTmux(home.dir, { ...home.env, PS1: '$ ' });
});
afterEach(async () => {
  outer.kill();
  await home.close();
});

test('the status line shows the branch and follows a cd; prefix W lists the worktree panes and Enter focuses one', async () => {
  const repo = path.join(home.dir, 'app');
  makeRepo(home, repo, { 'README.md': 'app\n' });
  const shell = { argv: ['sh'], cwd: repo, env: { ...home.env, PS1: '$ ' } };
  const first = await fux.new.mutate({ workspace: 'wt', ...shell, worktree: 'feat-one' });
  await fux.new.mutate({ workspace: 'wt', ...shell, worktree: 'feat-two' });
  const plain = await fux.new.mutate({ workspace: 'wt', ...shell, cwd: home.dir });

  const t = outer.open('wt', 100, 30, `${process.execPath} ${fuxBin} wt`);
  const bottom = (l: string[]): string => l[l.length - 1] ?? '';
  // The focused pane (the last opened) is outside any checkout: no branch shown.
  await outer.waitFor(t, (l) => bottom(l).includes(' 3 '), 'the status line');
  expect(bottom(outer.screen(t))).not.toContain('⎇');

  // A cd into the main checkout: the branch shows without anything else happening.
  fs.writeFileSync(path.join(home.dir, 'go'), `cd ${repo}\n`);
  outer.keys(t, ['. ./go', 'Enter']);
  await outer.waitFor(t, (l) => bottom(l).includes('⎇ main'), 'the branch of the cd');

  outer.keys(t, ['C-a', 'W']);
  const picker = await outer.waitFor(t, (l) => l.some((x) => x.includes('feat-two')), 'the worktree picker');
  const rows = picker.filter((x) => /tab 1 pane \d/.test(x));
  expect(rows.map((x) => /([\w-]+) +⎇ (\S+) +tab 1 pane (\d)/.exec(x)?.slice(1))).toEqual([
    ['feat-one', 'feat-one', String(first.id)],
    ['feat-two', 'feat-two', '2'],
    ['app', 'main', String(plain.id)],
  ]);
  outer.keys(t, ['Enter']);
  await until(
    async () =>
      (await fux.list.query({ workspace: 'wt' })).workspaces[0]!.panes.find((p) => p.focused)?.id ===
      first.id,
    10_000,
    'the first worktree pane focused',
  );
  await outer.waitFor(t, (l) => bottom(l).includes('⎇ feat-one'), "the focused pane's branch");
});

test('worktree remove on a terminal asks first: no keeps everything, yes closes its pane and removes it', async () => {
  const repo = path.join(home.dir, 'app');
  makeRepo(home, repo, { 'README.md': 'app\n' });
  const { id } = await fux.new.mutate({
    argv: ['sleep', '60'],
    cwd: repo,
    env: home.env,
    worktree: 'feat-ask',
  });
  const dir = path.join(home.dir, 'app.worktrees', 'feat-ask');
  await until(
    async () => (await fux.worktree.list.query({ cwd: repo })).worktrees[0]?.panes.length === 1,
    10_000,
    'the pane in the worktree',
  );
  const remove = `cd ${repo} && ${process.execPath} ${fuxBin} worktree remove feat-ask; echo "exit=$?"`;

  const no = outer.open('ask-no', 120, 10, `sh -c '${remove}; sleep 60'`);
  await outer.waitFor(
    no,
    (l) => l.some((x) => x.includes(`Remove worktree feat-ask (${dir}) and close pane ${id}? [y/N]`)),
    'the question',
  );
  outer.keys(no, ['n', 'Enter']);
  await outer.waitFor(no, (l) => l.some((x) => x.includes('exit=1')), 'the refusal');
  expect(outer.screen(no).join('\n')).toContain('nothing removed');
  expect(fs.existsSync(dir)).toBe(true);
  expect((await fux.list.query({})).workspaces[0]!.panes.map((p) => p.id)).toEqual([id]);

  const yes = outer.open('ask-yes', 120, 10, `sh -c '${remove}; sleep 60'`);
  await outer.waitFor(yes, (l) => l.some((x) => x.includes('[y/N]')), 'the question');
  outer.keys(yes, ['y', 'Enter']);
  await outer.waitFor(yes, (l) => l.some((x) => x.includes('exit=0')), 'the removal');
  expect(outer.screen(yes).join('\n')).toContain(`closed pane ${id}; branch feat-ask stays`);
  expect(fs.existsSync(dir)).toBe(false);
});
