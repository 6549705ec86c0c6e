// Issue 27 item 2: each pane's program belongs to a holder (native/pane-holder.c), so a SIGKILL of
// the server ends no pane; the next server takes every pane back with its id and pid, and what the
// program wrote while no server ran is on its screen. Real servers, real holders, real ptys.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { holderDir } from '../../src/server/holder/holder-dir';
import { isRunning } from '../../src/process-alive';
import { FuxHome, root, until } from '../helpers/home';

const built = fs.existsSync(path.join(root, 'native', 'build', 'pane-holder'));
const maybe = built ? describe : describe.skip;

let home: FuxHome;
beforeEach(() => {
  home = new FuxHome();
});
afterEach(async () => {
  await home.close();
  // A test that fails between a SIGKILL and the next server leaves holders: end them here.
  for (const pid of holderPids()) process.kill(pid, 'SIGTERM');
});

/** The holders of this home's server: processes whose command line names its holder directory. */
function holderPids(): number[] {
  const dir = holderDir(home.socket);
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir) && isRunning(Number(pid));
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function journaled(): string {
  try {
    return fs.readFileSync(path.join(home.env.XDG_STATE_HOME, 'fux', 'journal.json'), 'utf8');
  } catch {
    return '';
  }
}

async function sigkill(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

async function screen(fux: FuxClient, id: number): Promise<string> {
  return (await fux.capture.query({ id, scrollback: 200 })).text;
}

async function seen(fux: FuxClient, id: number, text: string): Promise<void> {
  await until(async () => (await screen(fux, id)).includes(text), 10_000, `"${text}" in pane ${id}`);
}

maybe('panes that outlive the server', () => {
  test('after a SIGKILL of the server, the next one has every pane with its id and pid: sleep still runs, cat still echoes, and what was written meanwhile is on the screen', async () => {
    const first = await home.startServer();
    let fux = await home.client();
    await fux.workspace.new.mutate({ name: 'main', cols: 100, rows: 30 });
    const sleeper = await fux.new.mutate({ argv: ['sleep', '300'], cwd: home.dir });
    const cat = await fux.split.mutate({ direction: 'v', argv: ['cat'], cwd: home.dir });
    await fux.sendKeys.mutate({ id: cat.id, keys: ['before-the-crash', 'Enter'] });
    await seen(fux, cat.id, 'before-the-crash\nbefore-the-crash');
    const tty = fs.readlinkSync(`/proc/${cat.pid}/fd/0`);
    // The layout comes back from the journal; the programs from their holders.
    await until(
      () => journaled().includes('"cat"') && journaled().includes('"sleep"'),
      15_000,
      'the journal to hold both panes',
    );
    await sigkill(first);

    // The program's terminal gets output while no server runs: its holder reads it.
    expect(isRunning(sleeper.pid)).toBe(true);
    fs.writeFileSync(tty, 'written-while-no-server-ran\r\n');

    await home.startServer();
    fux = await home.client();
    const panes = (await fux.list.query({})).workspaces.flatMap((w) => w.panes);
    expect(
      panes.map(({ id, pid, command, restored, survived }) => ({ id, pid, command, restored, survived })),
    ).toEqual([
      { id: sleeper.id, pid: sleeper.pid, command: ['sleep', '300'], restored: true, survived: true },
      { id: cat.id, pid: cat.pid, command: ['cat'], restored: true, survived: true },
    ]);
    expect(isRunning(sleeper.pid)).toBe(true);
    await seen(fux, cat.id, 'written-while-no-server-ran');
    await fux.sendKeys.mutate({ id: cat.id, keys: ['after-the-crash', 'Enter'] });
    await seen(fux, cat.id, 'after-the-crash\nafter-the-crash');
    expect(home.cli(['list']).stdout).toMatch(/pid \d+ {2}cat .*\(survived\)/);
  });

  test("holders' sockets are 0600 in a 0700 directory beside the server's; a pane's close ends its holder, and kill-server ends the rest", async () => {
    await home.startServer();
    const fux = await home.client();
    const a = await fux.new.mutate({ argv: ['sleep', '300'], cwd: home.dir });
    const b = await fux.new.mutate({ argv: ['cat'], cwd: home.dir });
    const dir = holderDir(home.socket);
    expect(path.dirname(dir)).toBe(path.dirname(home.socket));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const sockets = fs.readdirSync(dir);
    expect(sockets).toHaveLength(2);
    for (const name of sockets) {
      const st = fs.lstatSync(path.join(dir, name));
      expect(st.isSocket()).toBe(true);
      expect(st.mode & 0o777).toBe(0o600);
      expect(st.uid).toBe(process.getuid!());
    }
    expect(holderPids()).toHaveLength(2);

    await fux.kill.mutate({ id: a.id });
    await until(
      () => !isRunning(a.pid) && holderPids().length === 1,
      10_000,
      'the killed pane and its holder to go',
    );
    expect(fs.readdirSync(dir)).toHaveLength(1);

    expect(home.cli(['kill-server']).code).toBe(0);
    await until(() => !isRunning(b.pid) && holderPids().length === 0, 10_000, 'every pane and holder to go');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a pane whose program exits closes, and its holder goes', async () => {
    await home.startServer();
    const fux = await home.client();
    await fux.new.mutate({ argv: ['sleep', '300'], cwd: home.dir });
    const short = await fux.new.mutate({ argv: ['sh', '-c', 'read _; echo done; exit 3'], cwd: home.dir });
    await fux.sendKeys.mutate({ id: short.id, keys: ['Enter'] });
    await until(
      async () => !(await fux.list.query({})).workspaces.some((w) => w.panes.some((p) => p.id === short.id)),
      10_000,
      'the pane to close',
    );
    await until(() => holderPids().length === 1, 10_000, "the exited pane's holder to go");
  });
});
