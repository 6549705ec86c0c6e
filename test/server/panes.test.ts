import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';
import type { FuxClient } from '../../src/client';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

/** The pane's screen text once `predicate` holds for it. */
async function screenOf(id: number, predicate: (text: string) => boolean, what: string): Promise<string> {
  return until(
    async () => {
      const { text } = await fux.capture.query({ id });
      return predicate(text) ? text : undefined;
    },
    10_000,
    what,
  );
}

describe('panes', () => {
  test("new runs the command in the caller's cwd with the caller's environment plus FUX_*", async () => {
    const cwd = fs.mkdtempSync(path.join(home.dir, 'cwd-'));
    await fux.workspace.new.mutate({ name: 'main', cols: 200, rows: 24 }); // wide enough that no path wraps
    const r = home.cli(
      [
        'new',
        '--json',
        '--',
        'sh',
        '-c',
        'printf "%s\\n" "$PWD" "$CALLER" "$FUX_WORKSPACE" "$FUX_PANE" "$FUX_SOCKET"; sleep 30',
      ],
      {
        cwd,
        env: { CALLER: 'from-the-caller' },
      },
    );
    expect(r.code).toBe(0);
    const { id } = JSON.parse(r.stdout) as { id: number };
    expect(id).toBe(1);
    const text = await screenOf(id, (t) => t.includes('.sock'), 'the pane to print its environment');
    expect(text.split('\n').slice(0, 5)).toEqual([
      fs.realpathSync(cwd),
      'from-the-caller',
      'main',
      '1',
      home.socket,
    ]);
  });

  test('--cwd and --env override the working directory and add variables', async () => {
    const r = home.cli([
      'new',
      '--json',
      '--cwd',
      '/usr',
      '--env',
      'ANSWER=42',
      '--',
      'sh',
      '-c',
      'echo "$PWD $ANSWER"; sleep 30',
    ]);
    const { id } = JSON.parse(r.stdout) as { id: number };
    expect(await screenOf(id, (t) => t.includes('42'), 'the pane output')).toMatch(/^\/usr 42/);
  });

  test("the default command is the caller's shell", async () => {
    const r = home.cli(['new', '--json'], { env: { SHELL: '/bin/bash' } });
    const { id } = JSON.parse(r.stdout) as { id: number };
    const list = await fux.list.query({});
    expect(list.workspaces[0].panes.find((p) => p.id === id)?.command).toEqual(['/bin/bash']);
  });

  test('a pane that cannot start is a clear error and leaves nothing behind', () => {
    const r = home.cli(['new', '--', 'no-such-program-anywhere']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no-such-program-anywhere/);
    expect(JSON.parse(home.cli(['list', '--json']).stdout)).toEqual({ workspaces: [] });
  });

  test('every pty is resized to its rect, and again after a split', async () => {
    await fux.workspace.new.mutate({ name: 'main', cols: 100, rows: 40 });
    const a = await fux.new.mutate({ argv: ['sh'] });
    await fux.sendKeys.mutate({ id: a.id, keys: ['stty size', 'Enter'] });
    await screenOf(a.id, (t) => /^40 100$/m.test(t), 'stty to report 40 100');
    await fux.split.mutate({ direction: 'v', argv: ['sh'] }); // side by side: 49 | 50
    await fux.sendKeys.mutate({ id: a.id, keys: ['clear; stty size', 'Enter'] });
    await screenOf(a.id, (t) => /^40 49$/m.test(t), 'stty to report 40 49 after the split');
  });

  test('pane ids are unique in a workspace and not reused after a close', async () => {
    const a = await fux.new.mutate({ argv: ['sleep', '30'] });
    const b = await fux.new.mutate({ argv: ['sleep', '30'] });
    await fux.kill.mutate({ id: b.id });
    const c = await fux.new.mutate({ argv: ['sleep', '30'] });
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
  });

  test('list shows every workspace, tab and pane with id, command, pid, cwd, title, focus and geometry', async () => {
    await fux.workspace.new.mutate({ name: 'main', cols: 100, rows: 40 });
    await fux.new.mutate({ argv: ['sh', '-c', "printf '\\033]2;hello title\\007'; sleep 30"], cwd: '/tmp' });
    await fux.split.mutate({ direction: 'h', argv: ['sleep', '30'], cwd: '/' });
    await fux.tab.new.mutate({ argv: ['sleep', '30'] });
    await until(
      async () => (await fux.list.query({})).workspaces[0].panes[0].title === 'hello title',
      10_000,
      'the title',
    );
    const r = JSON.parse(home.cli(['list', '--json']).stdout) as {
      workspaces: Array<Record<string, unknown>>;
    };
    const [ws] = r.workspaces;
    expect(ws).toMatchObject({ name: 'main', cols: 100, rows: 40 });
    expect((ws.tabs as unknown[]).length).toBe(2);
    expect(ws.panes).toEqual([
      expect.objectContaining({
        id: 1,
        tab: 1,
        cwd: '/tmp',
        title: 'hello title',
        focused: false,
        active: false,
        x: 0,
        y: 0,
        cols: 100,
        rows: 19,
      }),
      expect.objectContaining({
        id: 2,
        tab: 1,
        cwd: '/',
        command: ['sleep', '30'],
        focused: true,
        active: false,
        x: 0,
        y: 20,
        cols: 100,
        rows: 20,
      }),
      expect.objectContaining({
        id: 3,
        tab: 2,
        focused: true,
        active: true,
        x: 0,
        y: 0,
        cols: 100,
        rows: 40,
      }),
    ]);
    for (const p of ws.panes as Array<{ pid: number }>) expect(p.pid).toBeGreaterThan(1);
  });

  test('a pane whose program exits is closed, and the last pane closing removes the workspace', async () => {
    const a = await fux.new.mutate({ argv: ['sleep', '30'] });
    await fux.new.mutate({ argv: ['sh', '-c', 'exit 0'] });
    await until(
      async () => (await fux.list.query({})).workspaces[0]?.panes.length === 1,
      10_000,
      'the pane to close',
    );
    await fux.kill.mutate({ id: a.id });
    expect((await fux.list.query({})).workspaces).toEqual([]);
  });

  test('tabs: new, next, prev and by number; new opens in the active tab', async () => {
    await fux.new.mutate({ argv: ['sleep', '30'] });
    await fux.tab.new.mutate({ argv: ['sleep', '30'] });
    await fux.tab.new.mutate({ argv: ['sleep', '30'] });
    const active = async (): Promise<number> =>
      (await fux.list.query({})).workspaces[0].tabs.find((t) => t.active)!.number;
    expect(await active()).toBe(3);
    expect((await fux.tab.select.mutate({ which: 'next' })).number).toBe(1);
    expect((await fux.tab.select.mutate({ which: 'prev' })).number).toBe(3);
    expect((await fux.tab.select.mutate({ which: 2 })).number).toBe(2);
    const d = await fux.new.mutate({ argv: ['sleep', '30'] });
    expect((await fux.list.query({})).workspaces[0].panes.find((p) => p.id === d.id)?.tab).toBe(2);
    await expect(fux.tab.select.mutate({ which: 9 })).rejects.toThrow(
      /no tab 9 in workspace main \(it has 3\)/,
    );
  });

  test('workspaces are named: -w and FUX_WORKSPACE pick one, and each has its own pane ids', async () => {
    expect(home.cli(['new', '-w', 'one', '--', 'sleep', '30']).stdout.trim()).toBe('1');
    expect(home.cli(['new', '--', 'sleep', '30'], { env: { FUX_WORKSPACE: 'two' } }).stdout.trim()).toBe('1');
    const names = (await fux.workspace.list.query({})).workspaces.map((w) => w.name).sort();
    expect(names).toEqual(['one', 'two']);
    const r = home.cli(['kill', '5', '-w', 'one']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no pane 5 in workspace one; `fux list` shows the panes');
  });
});
