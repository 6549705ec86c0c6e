// Issue 12: a server killed with SIGKILL is restored by the next one (ids, tabs, layout, zoom,
// focus, geometry, cwd, history); a clean stop is not, unless config says `always`, and its journal
// is kept for `fux restore`; a bad journal is moved aside and told once; a full disk is logged and
// the server carries on. Real servers, real ptys, real shells.
import { spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import type { FuxEvent } from '../../src/server/events';
import { collectEvents } from '../helpers/collect-events';
import { FuxHome, until } from '../helpers/home';

let home: FuxHome;
beforeEach(() => {
  home = new FuxHome();
});
afterEach(() => home.close());

const journalFile = (): string => path.join(home.env.XDG_STATE_HOME, 'fux', 'journal.json');
const readJournal = (): string => {
  try {
    return fs.readFileSync(journalFile(), 'utf8');
  } catch {
    return '';
  }
};

function writeConfig(text: string): void {
  fs.mkdirSync(path.join(home.env.XDG_CONFIG_HOME, 'fux'), { recursive: true });
  fs.writeFileSync(path.join(home.env.XDG_CONFIG_HOME, 'fux', 'config.toml'), text);
}

async function sigkill(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

function cli(...args: string[]): string {
  const r = home.cli(args);
  if (r.code !== 0) throw new Error(`fux ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

async function screen(fux: FuxClient, workspace: string, id: number): Promise<string> {
  return (await fux.capture.query({ workspace, id, scrollback: 500 })).text;
}

/** Run `command` in a pane and wait for `expect` on its screen. */
async function run(
  fux: FuxClient,
  workspace: string,
  id: number,
  command: string,
  expect: string,
): Promise<void> {
  await fux.sendKeys.mutate({ workspace, id, keys: [command], literal: true });
  await fux.sendKeys.mutate({ workspace, id, keys: ['Enter'] });
  await until(
    async () => (await screen(fux, workspace, id)).includes(expect),
    10_000,
    `"${expect}" in ${workspace}:${id}`,
  );
}

/** The parts of `list` a restore keeps (not pids, not agent timings). */
function kept(list: {
  workspaces: Array<Record<string, unknown> & { panes: Array<Record<string, unknown>> }>;
}) {
  return list.workspaces.map(({ panes, ...ws }) => ({
    ...ws,
    panes: panes.map(({ id, tab, cwd, focused, active, x, y, cols, rows, command }) => ({
      id,
      tab,
      cwd,
      focused,
      active,
      x,
      y,
      cols,
      rows,
      command,
    })),
  }));
}

describe('restore after a crash', () => {
  test('SIGKILL with two workspaces, three tabs, a zoomed pane and shells in several directories: all comes back, history and all, and typing works', async () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x) => path.join(home.dir, x)) as [
      string,
      string,
      string,
      string,
    ];
    for (const dir of [a, b, c, d]) fs.mkdirSync(path.join(dir, 'deeper'), { recursive: true });
    const first = await home.startServer();
    let fux = await home.client();
    await fux.workspace.new.mutate({ name: 'one', cols: 100, rows: 30 });
    await fux.new.mutate({ workspace: 'one', cwd: a });
    await fux.split.mutate({ workspace: 'one', direction: 'v', cwd: b });
    await fux.split.mutate({ workspace: 'one', direction: 'h', cwd: c, target: 2 });
    await fux.resize.mutate({ workspace: 'one', id: 1, delta: 7 });
    await fux.tab.new.mutate({ workspace: 'one', cwd: d });
    await fux.new.mutate({ workspace: 'two', cwd: b });
    await fux.tab.new.mutate({ workspace: 'two', cwd: c });
    await fux.zoom.mutate({ workspace: 'one', id: 3 });
    await fux.setStatus.mutate({ workspace: 'one', segment: 'build', text: 'green' });
    // The foreground cwd, not the start one, is what comes back.
    await run(fux, 'one', 1, 'cd deeper && echo "before-$((6*7))"', 'before-42');
    await run(fux, 'two', 2, 'printf "\\033[1;31mred-%s\\033[0m\\n" two', 'red-two');
    await until(
      () =>
        readJournal().includes('before-42') &&
        readJournal().includes('red-two') &&
        readJournal().includes('deeper'),
      15_000,
      'the journal to hold the history and cwd',
    );
    const journalMode = fs.statSync(journalFile()).mode & 0o777;
    expect(journalMode).toBe(0o600);
    const before = await fux.list.query({});
    await sigkill(first);

    await home.startServer();
    fux = await home.client();
    const after = await fux.list.query({});
    expect(kept(after)).toEqual(kept(before));
    expect(after.workspaces.flatMap((w) => w.panes.map((p) => p.restored))).toEqual(Array(6).fill(true));
    const one = after.workspaces.find((w) => w.name === 'one')!;
    expect(one.tabs.find((t) => t.number === 1)!.zoomed).toBe(3);
    expect(one.status).toEqual({ build: 'green' });
    expect(one.panes.find((p) => p.id === 1)!.cwd).toBe(path.join(a, 'deeper'));

    // The history from before, the marker, and a live shell that takes input.
    const text = await screen(fux, 'one', 1);
    expect(text).toMatch(/before-42[\s\S]*── restored \d\d:\d\d:\d\d ──/);
    const styled = (await fux.capture.query({ workspace: 'two', id: 2, attrs: true, scrollback: 100 })).text;
    expect(styled).toMatch(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*31[0-9;]*mred-two`));
    await run(fux, 'one', 1, 'echo "after-$((6*8))"; pwd', 'after-48');
    expect(await screen(fux, 'one', 1)).toContain(path.join(a, 'deeper'));

    // New panes count on from the restored ids.
    const fresh = await fux.new.mutate({ workspace: 'one' });
    expect(fresh.id).toBe(5);
    const human = cli('list', '-w', 'two');
    expect(human).toMatch(/\(restored\)/);
  }, 60_000);

  test('the workspace.restored event says what came back, how, and what did not', async () => {
    writeConfig('restore_skip = ["sleep"]\n');
    const first = await home.startServer();
    let fux = await home.client();
    await fux.new.mutate({ workspace: 'w', argv: ['/bin/sh'], cwd: home.dir });
    await fux.split.mutate({ workspace: 'w', direction: 'v', argv: ['sleep', '300'], cwd: home.dir });
    await until(() => readJournal().includes('"sleep"'), 15_000, 'the journal');
    await sigkill(first);
    // A restore at boot happens before anyone can subscribe: its event is in `fux restore`'s
    // reply and the log; here the journal is kept (never), then restored by hand under a subscriber.
    writeConfig('restore_skip = ["sleep"]\nrestore = "never"\n');
    await home.startServer();
    fux = await home.client();
    expect((await fux.list.query({})).workspaces).toEqual([]);
    const events: FuxEvent[] = [];
    let started!: () => void;
    const subscribed = new Promise<void>((resolve) => (started = resolve));
    fux.subscribe.subscribe(
      { events: ['workspace.restored'] },
      { onStarted: () => started(), onData: (e) => events.push(e as FuxEvent) },
    );
    await subscribed;
    const listed = cli('restore', '--list');
    expect(listed).toMatch(/^w$/m);
    expect(listed).toMatch(/1 {2}tab 1 {2}\/bin\/sh/);
    const dry = JSON.parse(cli('restore', '--dry-run', '--json')) as {
      workspaces: Array<{ panes: Array<{ id: number; how: string; reason: string | null }> }>;
    };
    expect(dry.workspaces[0]!.panes.map((p) => [p.id, p.how])).toEqual([
      [1, 'restarted'],
      [2, 'not-restarted'],
    ]);
    expect((await fux.list.query({})).workspaces).toEqual([]); // a dry run starts nothing
    expect(cli('restore')).toMatch(/w: 2 panes back/);
    const event = await until(() => events.find((e) => e.type === 'workspace.restored'), 10_000, 'the event');
    expect(event).toMatchObject({
      workspace: 'w',
      trigger: 'manual',
      restored: true,
      panes: [
        { id: 1, how: 'restarted', command: ['/bin/sh'], reason: null },
        { id: 2, how: 'not-restarted', command: ['sleep', '300'], reason: 'restore_skip names sleep' },
      ],
    });
    // The pane is narrow: the line wraps.
    expect((await screen(fux, 'w', 2)).replace(/\n/g, '')).toMatch(
      /\[exited\] not restarted: restore_skip names sleep/,
    );
    // Again: the workspace runs already, so nothing more comes back.
    expect(cli('restore', '--list')).toMatch(/nothing to restore/);
  }, 60_000);

  test("a flooding pane's history is journaled again once the flood stops, not at each write while it floods", async () => {
    writeConfig('restore_history = 100\n');
    const stop = path.join(home.dir, 'stop');
    await home.startServer();
    const fux = await home.client();
    await fux.new.mutate({ workspace: 'w', argv: ['/bin/sh'], cwd: home.dir });
    const saved = (): { savedAt: number; history: string } | undefined => {
      const text = readJournal();
      if (!text) return undefined;
      const j = JSON.parse(text) as {
        savedAt: number;
        workspaces: Array<{ panes: Array<{ history: string }> }>;
      };
      return { savedAt: j.savedAt, history: j.workspaces[0]?.panes[0]?.history ?? '' };
    };
    const nextWrite = async (after: number): Promise<{ savedAt: number; history: string }> =>
      until(
        () => {
          const now = saved();
          return now && now.savedAt > after ? now : undefined;
        },
        20_000,
        'the next journal write',
      );
    await run(
      fux,
      'w',
      1,
      `i=0; while [ ! -e ${stop} ]; do i=$((i+1)); echo "flood $i"; done; echo "flood-done"`,
      'flood ',
    );
    // Two writes while it floods (some hundreds of rows each apart): the same history.
    const first = await nextWrite(0);
    const second = await nextWrite(first.savedAt);
    const third = await nextWrite(second.savedAt);
    expect(third.history).toBe(second.history);
    fs.writeFileSync(stop, '');
    await until(() => saved()?.history.includes('flood-done'), 20_000, 'the history after the flood');
    const lines = saved()!.history.split('\n');
    expect(lines).toHaveLength(100);
    expect(lines[lines.length - 2]).toBe('flood-done');
    expect(lines[0]).toMatch(/^flood \d+$/);
  }, 90_000);

  test('a clean stop is not restored by default, and is with restore = "always"', async () => {
    const first = await home.startServer();
    const fux = await home.client();
    await fux.new.mutate({ workspace: 'kept', argv: ['/bin/sh'], cwd: home.dir });
    cli('kill-server');
    await until(() => first.exitCode !== null, 10_000, 'the server to stop');
    expect(JSON.parse(readJournal())).toMatchObject({ closed: true });
    expect(JSON.parse(cli('list', '--json'))).toEqual({ workspaces: [] });
    expect(cli('restore', '--list')).toMatch(/^kept$/m);

    cli('restore');
    expect(JSON.parse(cli('list', '--json')).workspaces.map((w: { name: string }) => w.name)).toEqual([
      'kept',
    ]);
    writeConfig('restore = "always"\n');
    await until(() => readJournal().includes('"kept"'), 15_000, 'the journal');
    cli('kill-server');
    await until(() => !home.serverPid(), 10_000, 'the server to stop');
    const list = JSON.parse(cli('list', '--json')) as {
      workspaces: Array<{ name: string; panes: Array<{ restored: boolean }> }>;
    };
    expect(list.workspaces.map((w) => [w.name, w.panes[0]!.restored])).toEqual([['kept', true]]);
  }, 60_000);
});

describe('a change is in the journal before the verb that made it answers (issue 32)', () => {
  /** What `list` shows of each workspace's panes: their ids and commands. */
  const panes = async (fux: FuxClient): Promise<Array<[string, number, string]>> =>
    (await fux.list.query({})).workspaces.flatMap((w) =>
      w.panes.map((p): [string, number, string] => [w.name, p.id, p.command.join(' ')]),
    );
  /** A server with workspace w: a shell (1) and `sleep 300` (2), both in a journal written whole. */
  async function journaledServer(): Promise<{ server: ChildProcess; fux: FuxClient }> {
    const server = await home.startServer();
    const fux = await home.client();
    await fux.new.mutate({ workspace: 'w', argv: ['/bin/sh'], cwd: home.dir });
    await fux.new.mutate({ workspace: 'w', argv: ['sleep', '300'], cwd: home.dir });
    await until(() => readJournal().includes('"sleep"'), 15_000, 'the journal to hold both panes');
    return { server, fux };
  }

  test('a pane killed right before a SIGKILL of the server does not run again after the restart', async () => {
    const { server, fux } = await journaledServer();
    await fux.kill.mutate({ workspace: 'w', id: 2 });
    await sigkill(server);
    await home.startServer();
    expect(await panes(await home.client())).toEqual([['w', 1, '/bin/sh']]);
  }, 60_000);

  test('a workspace killed right before a SIGKILL does not come back', async () => {
    const { server, fux } = await journaledServer();
    await fux.new.mutate({ workspace: 'x', argv: ['sleep', '301'], cwd: home.dir });
    await until(() => readJournal().includes('"301"'), 15_000, 'the journal to hold x');
    await fux.workspace.kill.mutate({ name: 'x' });
    await sigkill(server);
    await home.startServer();
    expect(await panes(await home.client())).toEqual([
      ['w', 1, '/bin/sh'],
      ['w', 2, 'sleep 300'],
    ]);
  }, 60_000);

  test('a pane whose program ended, heard of as pane.closed right before a SIGKILL, does not come back', async () => {
    const { server, fux } = await journaledServer();
    const closed = new Promise<void>((resolve) => {
      collectEvents(fux, { events: ['pane.closed'] }, () => {
        // At once, in the turn the event arrives: nothing more happens in the server after it.
        server.kill('SIGKILL');
        resolve();
      })
        .ready.then(() => fux.sendKeys.mutate({ workspace: 'w', id: 1, keys: ['exit', 'Enter'] }))
        .catch(() => undefined);
    });
    await closed;
    await until(() => server.exitCode !== null || server.signalCode !== null, 10_000, 'the server to die');
    await home.startServer();
    expect(await panes(await home.client())).toEqual([['w', 2, 'sleep 300']]);
  }, 60_000);

  test('the first pane of a server killed right after `new` answered comes back', async () => {
    const server = await home.startServer();
    const fux = await home.client();
    await fux.new.mutate({ workspace: 'w', argv: ['/bin/sh'], cwd: home.dir });
    await sigkill(server);
    await home.startServer();
    expect(await panes(await home.client())).toEqual([['w', 1, '/bin/sh']]);
  }, 60_000);

  test('panes split and tabs opened right before a SIGKILL come back in their places, the older panes with their history', async () => {
    const { server, fux } = await journaledServer();
    await run(fux, 'w', 1, 'echo "kept-$((6*7))"', 'kept-42');
    await until(() => readJournal().includes('kept-42'), 15_000, 'the journal to hold the history');
    await fux.split.mutate({
      workspace: 'w',
      direction: 'h',
      target: 1,
      argv: ['sleep', '302'],
      cwd: home.dir,
    });
    await fux.zoom.mutate({ workspace: 'w', id: 3 });
    await fux.tab.new.mutate({ workspace: 'w', argv: ['sleep', '303'], cwd: home.dir });
    const before = await fux.list.query({});
    await sigkill(server);
    await home.startServer();
    const fux2 = await home.client();
    const after = await fux2.list.query({});
    expect(kept(after)).toEqual(kept(before));
    expect(await screen(fux2, 'w', 1)).toContain('kept-42');
  }, 60_000);

  test('a server killed right after it restored brings back the same panes again, history and all', async () => {
    const { server, fux } = await journaledServer();
    await run(fux, 'w', 1, 'echo "kept-$((6*7))"', 'kept-42');
    await until(() => readJournal().includes('kept-42'), 15_000, 'the journal to hold the history');
    await fux.split.mutate({
      workspace: 'w',
      direction: 'h',
      target: 1,
      argv: ['sleep', '302'],
      cwd: home.dir,
    });
    const before = await fux.list.query({});
    await sigkill(server);
    // Restored (it answers once it has), then killed before it wrote a journal of its own.
    const restored = await home.startServer();
    expect(kept(await (await home.client()).list.query({}))).toEqual(kept(before));
    await sigkill(restored);
    await home.startServer();
    const again = await home.client();
    expect(kept(await again.list.query({}))).toEqual(kept(before));
    expect(await screen(again, 'w', 1)).toContain('kept-42');
  }, 60_000);

  test('with restore = "never", the journal kept for `fux restore` has the panes opened and closed right before the SIGKILL', async () => {
    const { server, fux } = await journaledServer();
    await fux.kill.mutate({ workspace: 'w', id: 2 });
    await fux.new.mutate({ workspace: 'w', argv: ['sleep', '304'], cwd: home.dir });
    await sigkill(server);
    writeConfig('restore = "never"\n');
    await home.startServer();
    const again = await home.client();
    expect(await panes(again)).toEqual([]);
    cli('restore');
    expect(await panes(again)).toEqual([
      ['w', 1, '/bin/sh'],
      ['w', 3, 'sleep 304'],
    ]);
  }, 60_000);
});

describe('bad state is never fatal', () => {
  test.each([
    ['a corrupt journal', '{"version": 1, "workspaces": [', /is not JSON/],
    [
      'a journal from another version',
      JSON.stringify({ version: 99, workspaces: [] }),
      /another fux \(journal version 99; this fux reads version 1\)/,
    ],
    [
      'a damaged journal',
      JSON.stringify({ version: 1, fux: 'x', socket: 's', savedAt: 1, closed: false, workspaces: [{}] }),
      /is damaged/,
    ],
  ])('%s is moved aside, told once on the next verb, and the server starts empty', (_name, text, why) => {
    fs.mkdirSync(path.dirname(journalFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(journalFile(), text);
    const r = home.cli(['list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ workspaces: [] });
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/moved it to .*journal\.json\.corrupt-\d{4}-/);
    const aside = fs
      .readdirSync(path.dirname(journalFile()))
      .filter((f) => f.startsWith('journal.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(journalFile()), aside[0]!), 'utf8')).toBe(text);
    const log = fs.readFileSync(path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log'), 'utf8');
    expect(log).toMatch(/warn restore: .*moved it to/);
    // Once: the next verb says nothing more.
    expect(home.cli(['list']).stderr).toBe('');
  });

  const canMount = process.getuid?.() === 0;
  (canMount ? test : test.skip)(
    'a full disk under the journal is logged and the server carries on',
    async () => {
      // A tiny file system of its own for the state dir (the log and the journal), outside the home.
      const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-full-disk-'));
      home.env.XDG_STATE_HOME = state;
      const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', state], {
        encoding: 'utf8',
      });
      if (mount.status !== 0) throw new Error(`mount failed: ${mount.stderr}`);
      try {
        const server = await home.startServer();
        let stderr = '';
        server.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        const fux = await home.client();
        await fux.new.mutate({ workspace: 'full', argv: ['/bin/sh'], cwd: home.dir });
        // ~200 KB of history: more than the whole file system holds.
        await run(
          fux,
          'full',
          1,
          'i=0; while [ $i -lt 2000 ]; do echo "line $i of a history that will not fit on the disk"; i=$((i+1)); done; echo done-filling',
          'done-filling',
        );
        await until(() => /journal: cannot write .*ENOSPC/.test(stderr), 20_000, 'the journal write to fail');
        // Still serving: a verb works, the pane takes input.
        await run(fux, 'full', 1, 'echo still-$((2+3))', 'still-5');
        expect(server.exitCode).toBeNull();
        // Said once, not on every write.
        expect(stderr.match(/journal: cannot write/g)).toHaveLength(1);
        expect(fs.readdirSync(path.join(state, 'fux')).filter((f) => f.includes('.tmp-'))).toEqual([]);
      } finally {
        await home.close();
        spawnSync('umount', ['-l', state]);
        fs.rmSync(state, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
