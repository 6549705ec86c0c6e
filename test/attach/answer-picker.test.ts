/**
 * Prefix `a` in a real terminal (tmux as the user's terminal, as in outer-tmux.test.ts) on a pane
 * where the real Claude Code, offline against the fake model server, waits on a permission
 * prompt: the picker lists the prompt's options, and Enter on one answers it. Attached on the
 * server's own machine, and from another fux home over iroh (`fux connect`), as a phone would.
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
/** Remote attach on loopback, with relays and discovery off (as test/remote/cli.test.ts). */
const OFFLINE = { FUX_IROH_RELAY: 'disabled', FUX_IROH_BIND: '127.0.0.1:0' };

let homes: FuxHome[] = [];
let outer: OuterTmux | undefined;
let model: FakeModelServer | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  outer?.kill();
  for (const home of homes) await home.close();
  homes = [];
  await model?.close();
  await run?.sandbox.remove();
});

function offlineHome(): FuxHome {
  const home = new FuxHome();
  Object.assign(home.env, OFFLINE);
  homes.push(home);
  return home;
}

function ok(home: FuxHome, args: string[]): string {
  const r = home.cli(args);
  if (r.code !== 0) throw new Error(`fux ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

/** The terminal the user attaches from, and the command it runs: `fux main` here, `fux connect` elsewhere. */
function attachFrom(
  server: FuxHome,
  how: 'here' | 'remote',
): { dir: string; env: Record<string, string>; command: string } {
  if (how === 'here')
    return { dir: server.dir, env: server.env, command: `${process.execPath} ${fuxBin} main` };
  const laptop = offlineHome();
  ok(server, ['allow', ok(laptop, ['id'])]);
  const ticket = ok(server, ['id', '--ticket']);
  return { dir: laptop.dir, env: laptop.env, command: `${process.execPath} ${fuxBin} connect ${ticket}` };
}

describe('the answer picker', () => {
  live.each(['here', 'remote'] as const)(
    "attached %s, prefix a lists a blocked Claude Code's options and Enter answers it; on a pane that is not blocked it says so",
    async (how) => {
      if ('missing' in claude) return;
      model = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: 100, rows: 30 });
      const workdir = run.sandbox.workdir;
      const server = offlineHome();
      await server.startServer();
      const fux: FuxClient = await server.client();
      const { id } = await fux.new.mutate({ argv: [claude.bin], cwd: workdir, env: run.launch.env });
      const state = async () =>
        (await fux.list.query({})).workspaces[0]?.panes.find((p) => p.id === id)?.state;
      const reach = (want: string) =>
        until(async () => ((await state()) === want ? true : undefined), STEP_MS, `the pane ${want}`);

      const from = attachFrom(server, how);
      outer = new OuterTmux(from.dir, { ...from.env });
      const t = outer.open('answer', 100, 32, from.command);
      await reach('idle');
      await outer.waitFor(t, (l) => l.some((x) => x.includes('? for shortcuts')), 'Claude Code attached');

      outer.keys(t, ['C-a', 'a']);
      await outer.waitFor(
        t,
        (l) => l.some((x) => x.includes(`pane ${id} in workspace main is not blocked on a prompt`)),
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
