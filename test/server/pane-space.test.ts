import * as fs from 'node:fs';
import { FuxHome, until } from '../helpers/home';
import { isAlive } from '../../src/process-alive';
import type { FuxClient } from '../../src/client';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

/** pid (comm) state ppid …: comm may hold spaces, so fields are read after its closing parenthesis. */
function statOf(pid: string): { comm: string; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { comm, ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** Whether `pid` is one of this server's pane holders (native/pane-holder.c), which run in its socket's `.panes` dir. */
function isHolderOf(pid: number, socket: string): boolean {
  try {
    return (
      fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1]?.startsWith(`${socket}.panes/`) === true
    );
  } catch {
    return false;
  }
}

/**
 * The `cat`s the server runs, running or not yet reaped (Linux /proc): its own children, or
 * (where panes run under holders) its holders' children.
 */
function catsOf(server: number): number[] {
  const cats: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat?.comm !== 'cat') continue;
    if (stat.ppid === server || isHolderOf(stat.ppid, home.socket)) cats.push(Number(entry));
  }
  return cats.sort((a, b) => a - b);
}

interface Listed {
  id: number;
  pid: number;
  cols: number;
  rows: number;
}

async function listed(): Promise<Listed[]> {
  const { workspaces } = await fux.list.query({});
  return workspaces.flatMap((w) => w.panes.map(({ id, pid, cols, rows }) => ({ id, pid, cols, rows })));
}

/** Wait until the server's `cat`s are exactly the processes `list` shows: nothing runs unlisted. */
async function onlyListedRun(server: number): Promise<Listed[]> {
  let panes: Listed[] = [];
  let cats: number[] = [];
  try {
    return await until(
      async () => {
        panes = await listed();
        cats = catsOf(server);
        const pids = panes.map((p) => p.pid).sort((a, b) => a - b);
        return JSON.stringify(pids) === JSON.stringify(cats) && panes;
      },
      10_000,
      'the server to run exactly the panes `list` shows',
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}: listed ${JSON.stringify(panes)}, cats ${JSON.stringify(cats)}`,
      { cause: err },
    );
  }
}

/** Attach a client to `main` at a size (the workspace takes it); resolves with the client's id. */
async function attached(cols: number, rows: number): Promise<string> {
  let client = '';
  fux.attach.session.subscribe(
    { workspace: 'main', cols, rows, cwd: home.dir, env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh' } },
    { onData: (frame) => (client ||= frame.client ?? '') },
  );
  return until(() => client, 10_000, 'the attach session to start');
}

const NO_SPACE = /no space for a new pane: pane \d+ of workspace main is \d+x\d+, and splitting it/;

/** `new` with the typed client (the procedure the CLI calls): the pane, or the refusal. */
async function openCat(): Promise<{ id: number } | Error> {
  const env = { PATH: process.env.PATH ?? '' };
  return fux.new.mutate({ workspace: 'main', argv: ['cat'], cwd: home.dir, env }).catch((err: Error) => err);
}

describe('a tab full of panes refuses more and still closes', () => {
  test('in 80x24, `new` ends in "no space for a new pane", starts nothing, and kill and workspace kill work after', async () => {
    const server = home.serverPid()!;
    // The case broke at the 19th `new`, by crushing panes to make room; now the newest pane
    // halves until it is 2x1 (10 panes in 80x24) and the next `new` is refused.
    let opened = 0;
    for (let r = await openCat(); !(r instanceof Error) && opened < 40; r = await openCat()) opened++;
    expect(opened).toBe(10);
    const refused = home.cli(['new', '--json', '--', 'cat']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(NO_SPACE);
    expect(refused.stderr).toMatch(/close a pane \(`fux kill`\), make the terminal larger, or open a tab/);

    let panes = await onlyListedRun(server);
    expect(panes).toHaveLength(opened);
    for (const p of panes) expect([p.cols >= 2, p.rows >= 1]).toEqual([true, true]);

    // The focused pane is too small to split either way, from the CLI or from a key (prefix | - c
    // are `split` and `new` calls made for the attached client).
    const { workspaces } = await fux.list.query({ workspace: 'main' });
    expect(workspaces[0]!.panes.find((p) => p.focused)).toMatchObject({ cols: 2, rows: 1 });
    const split = home.cli(['split', 'h', '--', 'cat']);
    expect(split.code).not.toBe(0);
    expect(split.stderr).toMatch(NO_SPACE);
    const client = await attached(80, 24);
    for (const action of [
      { kind: 'call', call: 'split', input: { direction: 'v' } },
      { kind: 'call', call: 'split', input: { direction: 'h' } },
      { kind: 'call', call: 'new', input: {} },
    ] as const)
      await expect(fux.attach.action.mutate({ client, action })).rejects.toThrow(NO_SPACE);
    expect(await onlyListedRun(server)).toEqual(panes);

    // Killing panes anywhere in the full layout works, and each one's process ends.
    expect(home.cli(['kill', String(panes[0]!.id)])).toMatchObject({ code: 0, stderr: '' });
    for (const victim of [panes[Math.floor(panes.length / 2)]!, panes.at(-1)!])
      await fux.kill.mutate({ workspace: 'main', id: victim.id });
    panes = await onlyListedRun(server);
    expect(panes).toHaveLength(opened - 3);

    expect(home.cli(['workspace', 'kill', 'main'])).toMatchObject({ code: 0, stderr: '' });
    expect(await onlyListedRun(server)).toEqual([]);
    await until(() => panes.every((p) => !isAlive(p.pid)), 10_000, 'every pane process to end');
  }, 60_000);

  test('a workspace made smaller than its panes need keeps each its minimum, gives the sizes back, and kill works there', async () => {
    const server = home.serverPid()!;
    await fux.workspace.new.mutate({ name: 'main', cols: 80, rows: 24 });
    for (let i = 0; i < 8; i++) expect(await openCat()).toHaveProperty('id');
    const full = await onlyListedRun(server);

    expect(home.cli(['workspace', 'resize', 'main', '--size', '2x2'])).toMatchObject({ code: 0, stderr: '' });
    const squeezed = await listed();
    expect(squeezed.map((p) => p.id)).toEqual(full.map((p) => p.id));
    for (const p of squeezed) expect([p.cols >= 2, p.rows >= 1]).toEqual([true, true]);
    // Each pty follows its rect: the program and the emulator see the size `list` shows.
    for (const p of squeezed) {
      const { cols, rows } = await fux.capture.query({ workspace: 'main', id: p.id });
      expect({ id: p.id, cols, rows }).toEqual({ id: p.id, cols: p.cols, rows: p.rows });
    }
    // The panes keep their minimum, so none of them has room to split.
    expect(await openCat()).toEqual(expect.objectContaining({ message: expect.stringMatching(NO_SPACE) }));

    // As tmux does, the layout comes back as it was when the terminal grows again.
    await fux.workspace.resize.mutate({ workspace: 'main', cols: 80, rows: 24 });
    expect(await listed()).toEqual(full);

    await fux.workspace.resize.mutate({ workspace: 'main', cols: 2, rows: 2 });
    expect(home.cli(['kill', String(full[3]!.id)])).toMatchObject({ code: 0, stderr: '' });
    const left = full.filter((p) => p.id !== full[3]!.id);
    expect((await onlyListedRun(server)).map((p) => p.id)).toEqual(left.map((p) => p.id));
    expect(home.cli(['workspace', 'kill', 'main'])).toMatchObject({ code: 0, stderr: '' });
    expect(await onlyListedRun(server)).toEqual([]);
  }, 60_000);
});
