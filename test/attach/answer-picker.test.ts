/**
 * Prefix `a` in a real terminal (tmux as the user's terminal, as in outer-tmux.test.ts) on a pane
 * where the real Claude Code, offline against the fake model server, waits on a permission
 * prompt: the picker lists the prompt's options, and Enter on one answers it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { findInstalledAgent } from '../agents/installed';
import { claudeBash, text } from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';
import { FuxHome, fuxBin, until } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? test.skip : test;
if ('missing' in claude) console.warn(`skipping the answer picker test: ${claude.missing}`);

/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 30_000;
const WORKSPACE = 'w-answer';

let home: FuxHome | undefined;
let outer: OuterTmux | undefined;
let model: FakeModelServer | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  outer?.kill();
  await home?.close();
  await model?.close();
  await run?.sandbox.remove();
});

describe('the answer picker', () => {
  live(
    "prefix a lists a blocked Claude Code's options and Enter answers it; on a pane that is not blocked it says so",
    async () => {
      if ('missing' in claude) return;
      model = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: 100, rows: 30 });
      const workdir = run.sandbox.workdir;
      home = new FuxHome();
      await home.startServer();
      const fux: FuxClient = await home.client();
      await fux.workspace.new.mutate({ name: WORKSPACE, cols: 100, rows: 30 });
      const { id } = await fux.new.mutate({
        workspace: WORKSPACE,
        argv: [claude.bin],
        cwd: workdir,
        env: run.launch.env,
      });
      const state = async () =>
        (await fux.list.query({ workspace: WORKSPACE })).workspaces[0]?.panes.find((p) => p.id === id)?.state;
      const reach = (want: string) =>
        until(async () => ((await state()) === want ? true : undefined), STEP_MS, `the pane ${want}`);

      outer = new OuterTmux(home.dir, { ...home.env });
      const t = outer.open('answer', 100, 32, `${process.execPath} ${fuxBin} ${WORKSPACE}`);
      await reach('idle');
      await outer.waitFor(t, (l) => l.some((x) => x.includes('? for shortcuts')), 'Claude Code attached');

      outer.keys(t, ['C-a', 'a']);
      await outer.waitFor(
        t,
        (l) => l.some((x) => x.includes(`pane ${id} in workspace ${WORKSPACE} is not blocked on a prompt`)),
        'the refusal on an idle pane',
      );

      model.enqueue(claudeBash('touch made-by-picker.txt', 'Create a marker file'), text('Marker made.'));
      outer.keys(t, ['Create the marker file']);
      await outer.waitFor(t, (l) => l.some((x) => x.includes('Create the marker file')), 'the prompt typed');
      outer.keys(t, ['Enter']);
      await reach('blocked');

      outer.keys(t, ['C-a', 'a']);
      const picker = await outer.waitFor(
        t,
        (l) => l.some((x) => x.includes(`answer pane ${id}`)) && l.some((x) => x.includes('3. No')),
        'the picker',
      );
      expect(picker.join('\n')).toMatch(/1\. Yes[\s\S]*2\. Yes, and always allow[\s\S]*3\. No/);
      // The picker starts on the option under the prompt's cursor (1. Yes); down and up again.
      outer.keys(t, ['j', 'k', 'Enter']);
      await until(
        () => fs.existsSync(path.join(workdir, 'made-by-picker.txt')) || undefined,
        STEP_MS,
        'the command to run',
      );
      await outer.waitFor(t, (l) => l.some((x) => x.includes('Marker made.')), 'the reply after the tool');
      await reach('idle');
    },
    180_000,
  );
});
