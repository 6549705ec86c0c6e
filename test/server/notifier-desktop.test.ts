// The notifier from a real server (DESIGN.md §6): a fake `notify-send` on the server's PATH
// records the argv of every call, and a display is set so the Linux path is taken.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import type { FuxEvent } from '../../src/server/events';
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
      `pane ${id} (main) asks: Do you want to proceed?`,
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
    expect(recorded().map((argv) => argv[2])).toEqual([`pane ${loud} (main) asks: Do you want to proceed?`]);
  });

  test('one notification per transition, none for the pane an attached client looks at, and pane.seen when the other is looked at', async () => {
    await home.startServer();
    fux = await home.client();
    const events: FuxEvent[] = [];
    await new Promise<void>((started) =>
      fux.subscribe.subscribe(
        { events: ['agent.state', 'pane.seen', 'client.attached'] },
        { onStarted: () => started(), onData: (e) => void events.push(e as FuxEvent) },
      ),
    );
    const reached =
      (id: number, state: string, count = 1) =>
      () =>
        events.filter((e) => e.type === 'agent.state' && e.id === id && e.state === state).length >= count;
    const away = await openFakeClaude();
    const watched = await openFakeClaude();
    // A client attached to the workspace: its active tab is the second, so it looks at `watched`.
    const attached = fux.attach.session.subscribe(
      { workspace: 'main', cols: 80, rows: 24, cwd: home.dir, env: { PATH: home.env.PATH!, HOME: home.dir } },
      { onData: () => undefined },
    );
    await until(() => events.some((e) => e.type === 'client.attached'), 10_000, 'the client to attach');

    const seenStates = new Map<string, number>();
    for (const screen of ['working', 'blocked', 'working', 'idle'] as const) {
      const count = (seenStates.get(screen) ?? 0) + 1;
      seenStates.set(screen, count);
      await draw(watched, screen);
      await until(reached(watched, screen, count), 10_000, `watched ${screen} (${count})`);
    }
    await draw(away, 'working');
    await until(reached(away, 'working'), 10_000, 'working');
    await draw(away, 'blocked');
    await until(reached(away, 'blocked'), 10_000, 'blocked');
    // The prompt redrawn, twice: still one question.
    await draw(away, 'blocked');
    await draw(away, 'blocked');
    await draw(away, 'working');
    await until(reached(away, 'working', 2), 10_000, 'working again');
    await draw(away, 'idle');
    await until(() => recorded().length >= 2, 10_000, 'two notify-send calls');
    expect(recorded().map((argv) => argv.slice(1))).toEqual([
      ['claude needs you', `pane ${away} (main) asks: Do you want to proceed?`],
      ['claude finished', `pane ${away} (main) is back at its prompt`],
    ]);

    // The finished pane is unseen until the attached client focuses it.
    expect(events.some((e) => e.type === 'pane.seen')).toBe(false);
    await fux.focus.mutate({ target: away });
    await until(() => events.some((e) => e.type === 'pane.seen' && e.id === away), 10_000, 'pane.seen');
    expect(events.filter((e) => e.type === 'pane.seen')).toHaveLength(1);
    expect(recorded()).toHaveLength(2);
    attached.unsubscribe();
  });
});
