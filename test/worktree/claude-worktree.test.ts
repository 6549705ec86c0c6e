// Issue 13 end to end: a real Claude Code (offline, against the fake model server) started in a
// worktree pane by `--worktree`; the file its Write tool makes lands in the worktree, and the main
// checkout never sees it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { findInstalledAgent } from '../agents/installed';
import { claudeWrite } from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';
import { until, type FuxHome } from '../helpers/home';
import { gitIn, makeRepo, worktreeHome } from './helpers';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? test.skip : test;
if ('missing' in claude) console.warn(`skipping the Claude Code worktree test: ${claude.missing}`);

/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 30_000;

let home: FuxHome | undefined;
let model: FakeModelServer | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  await home?.close();
  await model?.close();
  await run?.sandbox.remove();
});

live(
  'a real Claude Code started with --worktree writes its file in the worktree, not in the main checkout',
  async () => {
    if ('missing' in claude) return;
    model = await FakeModelServer.start();
    run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: 120, rows: 40 });
    home = worktreeHome();
    const fuxHome = home;
    const repo = path.join(run.sandbox.workdir, 'app');
    const worktree = path.join(run.sandbox.workdir, 'app.worktrees', 'feat-claude');
    makeRepo(home, repo, { 'README.md': 'app\n' });
    // Claude Code asks whether to trust a folder it has not seen: the worktree is trusted ahead.
    const claudeJson = path.join(run.sandbox.home, '.claude.json');
    const config = JSON.parse(fs.readFileSync(claudeJson, 'utf8')) as { projects: Record<string, unknown> };
    config.projects[worktree] = { hasTrustDialogAccepted: true, allowedTools: [] };
    fs.writeFileSync(claudeJson, JSON.stringify(config));

    await home.startServer();
    const fux = await home.client();
    const { id } = await fux.new.mutate({
      argv: [claude.bin],
      cwd: repo,
      env: run.launch.env,
      worktree: 'feat-claude',
    });
    const waitFor = (state: string, now: boolean): void => {
      const args = ['wait', String(id), '--state', state, '--timeout', String(STEP_MS)];
      const r = fuxHome.cli(now ? [...args, '--now'] : args);
      if (r.code !== 0) throw new Error(`fux wait ${state}: ${r.stderr}`);
    };
    const sendKeys = (...keys: string[]): void => {
      const r = fuxHome.cli(['send-keys', String(id), ...keys]);
      if (r.code !== 0) throw new Error(`fux send-keys failed: ${r.stderr}`);
    };
    const screen = async (): Promise<string> => (await fux.capture.query({ id })).text;

    waitFor('idle', true);
    // A relative path: Claude Code resolves it against its working directory, the worktree.
    model.enqueue(claudeWrite('notes.txt', 'written by claude\n'));
    sendKeys('Write the notes');
    await until(async () => (await screen()).includes('Write the notes'), STEP_MS, 'the prompt to show');
    sendKeys('Enter');
    // Claude Code asks before writing a file; Enter takes its first answer, yes.
    await until(
      async () => /Do you want to (create|make this edit to) notes\.txt/.test(await screen()),
      STEP_MS,
      'the write permission prompt',
    );
    sendKeys('Enter');
    await until(() => fs.existsSync(path.join(worktree, 'notes.txt')), STEP_MS, 'notes.txt in the worktree');

    expect(fs.readFileSync(path.join(worktree, 'notes.txt'), 'utf8')).toBe('written by claude\n');
    expect(fs.existsSync(path.join(repo, 'notes.txt'))).toBe(false);
    expect(gitIn(home, repo, ['status', '--porcelain'])).toBe('');
    const listed = (await fux.list.query({})).workspaces[0]!.panes[0]!;
    expect([listed.agent, listed.branch, listed.worktree]).toEqual(['claude', 'feat-claude', 'feat-claude']);
    const wt = await fux.worktree.list.query({ cwd: repo });
    expect(wt.worktrees.map((w) => [w.name, w.state, w.panes.map((p) => p.id)])).toEqual([
      ['feat-claude', 'changed', [id]],
    ]);
  },
  120_000,
);
