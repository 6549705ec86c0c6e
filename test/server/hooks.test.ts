// Hooks from the config (DESIGN.md §4, §6): started with the server, with FUX_SOCKET; restarted
// when they exit; stopped when the server stops or a reload drops them; a bad config is logged
// with its file, line and key and the last good one stays in force.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';
import { isAlive } from '../../src/process-alive';

let home: FuxHome;
let config: string;
let log: string;
beforeEach(() => {
  home = new FuxHome();
  config = path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'config.toml');
  log = path.join(home.env.XDG_STATE_HOME!, 'fux', 'server.log');
  fs.mkdirSync(path.dirname(config), { recursive: true });
});
afterEach(() => home.close());

const lines = (file: string): string[] =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n').filter(Boolean) : [];

/** A TOML string holding a shell command. */
const toml = (text: string): string => JSON.stringify(text);

describe('hooks', () => {
  test('a hook starts with the server, sees FUX_SOCKET, and is restarted each time it exits', async () => {
    const out = path.join(home.dir, 'runs');
    fs.writeFileSync(config, `hooks = [${toml(`echo "$FUX_SOCKET $$" >> ${out}; exit 3`)}]\n`);
    await home.startServer();
    const runs = await until(() => lines(out).length >= 2 && lines(out), 15_000, 'the hook to run twice');
    const [first, second] = runs.map((line) => line.split(' '));
    expect(first![0]).toBe(home.socket);
    expect(second![0]).toBe(home.socket);
    expect(first![1]).not.toBe(second![1]);
    expect(fs.readFileSync(log, 'utf8')).toMatch(/hook exited 3; restarting in \d+ ms/);
  });

  test('the server stops its hooks, and what they started, when it stops', async () => {
    const pids = path.join(home.dir, 'pids');
    fs.writeFileSync(config, `hooks = [${toml(`sleep 1000 & echo $! > ${pids}; wait`)}]\n`);
    await home.startServer();
    const child = Number(await until(() => lines(pids)[0], 10_000, 'the hook to start its child'));
    expect(isAlive(child)).toBe(true);
    expect(home.cli(['kill-server']).code).toBe(0);
    await until(() => !isAlive(child), 10_000, "the hook's child to be stopped");
  });

  test('a bad config is logged with file, line and key; the last good one stays; a good one applies at once', async () => {
    fs.writeFileSync(config, 'notify = true\nnotfy = false\n');
    await home.startServer();
    expect(fs.readFileSync(log, 'utf8')).toContain(`config: ${config}:2: notfy: unknown key`);
    expect(home.cli(['list']).code).toBe(0);

    const pids = path.join(home.dir, 'pids');
    fs.writeFileSync(config, `hooks = [${toml(`echo $$ >> ${pids}; exec sleep 1000`)}]\n`);
    const hook = Number(await until(() => lines(pids)[0], 10_000, 'the hook from the fixed config'));

    fs.writeFileSync(config, `hooks = 7\n`);
    await until(
      () => fs.readFileSync(log, 'utf8').includes('the last good config stays in force'),
      10_000,
      'the bad reload to be logged',
    );
    expect(fs.readFileSync(log, 'utf8')).toContain(`config: ${config}:1: hooks: `);
    expect(isAlive(hook)).toBe(true);

    fs.writeFileSync(config, 'hooks = []\n');
    await until(() => !isAlive(hook), 10_000, 'the dropped hook to stop');
    expect(lines(pids)).toEqual([String(hook)]);
  });

  test('after a SIGKILL of the server the next one ends the hooks it left and starts its own: never two at once', async () => {
    const runs = path.join(home.dir, 'runs');
    // The hook's group: the shell (its leader) and a child it started.
    fs.writeFileSync(config, `hooks = [${toml(`sleep 1000 & echo $$ $! >> ${runs}; wait`)}]\n`);
    const first = await home.startServer();
    const [leader, child] = (await until(() => lines(runs)[0], 10_000, 'the first hook'))
      .split(' ')
      .map(Number);
    // The server records the group just after spawning it, and the hook's shell may print first
    // (a fresh-clone run under load read the directory in between).
    const records = (): string[] =>
      fs
        .readdirSync(path.join(home.env.XDG_STATE_HOME!, 'fux'))
        .filter((name) => /^hooks\.[0-9a-f]+\.pids$/.test(name))
        .map((name) => path.join(home.env.XDG_STATE_HOME!, 'fux', name));
    const record = await until(
      () => (records().length > 0 ? records() : undefined),
      10_000,
      'the hook record',
    );
    expect(record).toHaveLength(1);
    expect(fs.statSync(record[0]!).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(record[0]!, 'utf8')).toMatch(new RegExp(`^${leader} \\S+\n$`));

    first.kill('SIGKILL');
    await until(() => first.exitCode !== null || first.signalCode !== null, 10_000, 'the server to die');
    // A killed server stops nothing: its hook lives on.
    expect(isAlive(leader!)).toBe(true);
    expect(isAlive(child!)).toBe(true);

    await home.startServer();
    await until(() => lines(runs).length === 2, 10_000, 'the next server to start the hook');
    await until(() => !isAlive(leader!) && !isAlive(child!), 10_000, 'the old hook and its child to end');
    expect(fs.readFileSync(log, 'utf8')).toContain(`ending hook group ${leader} left by a previous server`);
    const [nextLeader, nextChild] = lines(runs)[1]!.split(' ').map(Number);
    expect(isAlive(nextLeader!)).toBe(true);
    expect(isAlive(nextChild!)).toBe(true);
    // The old hook was ended before the new one started (the record says only the new one runs).
    // The record is written just after the hook starts, so the hook's own line may come first.
    const only = new RegExp(`^${nextLeader} \\S+\n$`);
    const readRecord = (): string | undefined => {
      try {
        return fs.readFileSync(record[0]!, 'utf8');
      } catch {
        return undefined; // rewritten by the new server (remove, then write)
      }
    };
    await until(() => only.test(readRecord() ?? '') || undefined, 10_000, 'the record of the new hook alone');
  });
});
