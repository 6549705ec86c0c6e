// The notifier from a real server (DESIGN.md §6): a fake `notify-send` on the server's PATH
// records the argv of every call, and a display is set so the Linux path is taken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { FuxHome, until } from '../helpers/home';
import { fakeClaude, type ScreenName } from './agent-screens';

const linux = process.platform === 'linux' ? describe : describe.skip;

let home: FuxHome;
let fux: FuxClient;
let calls: string;

beforeEach(() => {
  home = new FuxHome();
  const bin = path.join(home.dir, 'bin');
  calls = path.join(home.dir, 'calls');
  fs.mkdirSync(bin);
  fs.mkdirSync(calls);
  // One file per call, its arguments NUL-separated.
  fs.writeFileSync(
    path.join(bin, 'notify-send'),
    `#!/bin/sh\nprintf '%s\\0' "$@" > "${calls}/call.$$.tmp" && mv "${calls}/call.$$.tmp" "${calls}/call.$$"\n`,
    { mode: 0o755 },
  );
  home.env.PATH = `${bin}:${home.env.PATH ?? '/usr/bin:/bin'}`;
  home.env.DISPLAY = ':fux-test';
  delete home.env.WAYLAND_DISPLAY;
});
afterEach(() => home.close());

function recorded(): string[][] {
  return fs
    .readdirSync(calls)
    .filter((name) => !name.endsWith('.tmp'))
    .map((name) => fs.readFileSync(path.join(calls, name), 'utf8').split('\0').slice(0, -1));
}

async function openFakeClaude(): Promise<number> {
  const claude = fakeClaude(home.dir);
  // A tab each, so every pane has the 80x24 the fixtures were captured at.
  const { id } = await fux.tab.new.mutate({ argv: claude.argv, env: claude.env, cwd: home.dir });
  return id;
}

async function draw(id: number, screen: ScreenName): Promise<void> {
  await fux.sendKeys.mutate({ id, keys: [screen, 'Enter'] });
}

linux('desktop notifications', () => {
  test('an agent blocking on a prompt runs notify-send with the agent, the pane and the reason', async () => {
    await home.startServer();
    fux = await home.client();
    const id = await openFakeClaude();
    await draw(id, 'working');
    await draw(id, 'blocked');
    const [call] = await until(() => recorded().length > 0 && recorded(), 10_000, 'a notify-send call');
    expect(call).toEqual([
      '--app-name=fux',
      'claude needs you',
      `pane ${id} (main) is waiting for an answer`,
    ]);
  });

  test('with notify = false nothing is sent, and turning it back on in the running server takes effect', async () => {
    const config = path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'config.toml');
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, 'notify = false\n');
    await home.startServer();
    fux = await home.client();
    const quiet = await openFakeClaude();
    await draw(quiet, 'blocked');
    await until(
      async () => (await fux.list.query({})).workspaces[0]?.panes[0]?.state === 'blocked',
      10_000,
      'the first pane to block',
    );

    fs.writeFileSync(config, 'notify = true\n');
    const log = path.join(home.env.XDG_STATE_HOME!, 'fux', 'server.log');
    // Loaded once at start (notify = false), then again by the reload.
    const loads = (): number => fs.readFileSync(log, 'utf8').split(`config: loaded ${config}`).length - 1;
    await until(() => loads() === 2, 10_000, 'the reload');
    const loud = await openFakeClaude();
    await draw(loud, 'blocked');
    await until(() => recorded().length > 0, 10_000, 'a notify-send call');
    // The first pane's blocked prompt came seconds earlier; had it been sent, it would be here.
    expect(recorded().map((argv) => argv[2])).toEqual([`pane ${loud} (main) is waiting for an answer`]);
  });
});
