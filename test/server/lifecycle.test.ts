import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { FuxHome, until } from '../helpers/home';
import { isAlive } from '../../src/process-alive';

let home: FuxHome;
beforeEach(() => {
  home = new FuxHome();
});
afterEach(() => home.close());

const mode = (p: string): number => fs.statSync(p).mode & 0o777;

describe('the server process', () => {
  test('any verb starts a server in the background and waits for it', () => {
    expect(fs.existsSync(home.socket)).toBe(false);
    const r = home.cli(['list', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ workspaces: [] });
    const pid = home.serverPid();
    expect(pid && isAlive(pid)).toBeTruthy();
  });

  test('the socket is 0600 in a 0700 directory, and the log is in the state dir', () => {
    home.cli(['list']);
    expect(mode(home.socket)).toBe(0o600);
    expect(mode(path.dirname(home.socket))).toBe(0o700);
    const log = path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log');
    expect(fs.readFileSync(log, 'utf8')).toContain(`listening on ${home.socket}`);
  });

  test('a socket directory open to others is refused with a clear error', () => {
    const dir = path.dirname(home.socket);
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    const r = home.cli(['list']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/open to other users.*chmod 700/);
    expect(fs.existsSync(home.socket)).toBe(false);
  });

  test('a socket directory owned by another user is refused', () => {
    const dir = path.dirname(home.socket);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    const r = home.cli(['list']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/belongs to uid 65534, not to you/);
  });

  test('a process of another uid cannot connect to the socket', () => {
    home.cli(['list']);
    const probe = `require('net').connect(${JSON.stringify(home.socket)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(0)})`;
    // The directory is 0700, so the other user cannot even reach the socket file.
    const r = spawnSync(process.execPath, ['-e', probe], { uid: 65534, gid: 65534, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('EACCES');
  });

  test('--socket and FUX_SOCKET choose the socket', () => {
    const other = path.join(home.dir, 'other');
    fs.mkdirSync(other, { mode: 0o700 });
    const sock = path.join(other, 'alt.sock');
    expect(home.cli(['list', '--socket', sock]).code).toBe(0);
    expect(fs.existsSync(sock)).toBe(true);
    expect(fs.existsSync(home.socket)).toBe(false);
    expect(home.cli(['kill-server', '--socket', sock]).code).toBe(0);
  });

  test('ten verbs started at once on a fresh socket yield one server', async () => {
    const runs = Array.from({ length: 10 }, () => home.spawnCli(['list', '--json']));
    const codes = await Promise.all(runs.map((c) => new Promise<number | null>((r) => c.on('exit', r))));
    expect(codes).toEqual(Array(10).fill(0));
    const pid = home.serverPid()!;
    const servers = (): number[] =>
      spawnSync('pgrep', ['-f', `server/main.js --socket ${home.socket}`], { encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter(Boolean)
        .map(Number);
    // Servers that lost the race may still be loading; each exits once it finds the lock taken.
    await until(() => servers().length === 1, 20_000, 'the losing servers to exit');
    expect(servers()).toEqual([pid]);
    expect(home.cli(['list', '--json']).code).toBe(0);
  });

  test('kill-server stops it: panes get SIGHUP and the socket is removed', async () => {
    const marker = path.join(home.dir, 'hup');
    const script = `trap 'echo hup > ${marker}; exit 0' HUP; echo ready; while :; do sleep 0.05; done`;
    expect(home.cli(['new', '--', 'sh', '-c', script]).code).toBe(0);
    const pid = home.serverPid()!;
    const r = home.cli(['kill-server']);
    expect(r.code).toBe(0);
    await until(() => !isAlive(pid), 10_000, 'the server to exit');
    expect(fs.existsSync(home.socket)).toBe(false);
    await until(() => fs.existsSync(marker), 10_000, 'the pane to get SIGHUP');
  });

  test('SIGTERM stops the server cleanly', async () => {
    home.cli(['list']);
    const pid = home.serverPid()!;
    process.kill(pid, 'SIGTERM');
    await until(() => !isAlive(pid), 10_000, 'the server to exit');
    expect(fs.existsSync(home.socket)).toBe(false);
    expect(fs.existsSync(`${home.socket}.pid`)).toBe(false);
  });

  test('after a SIGKILL the next verb replaces the stale socket with a fresh server', async () => {
    // Without a restore, so the fresh server is seen empty (test/server/restore.test.ts restores).
    fs.mkdirSync(path.join(home.env.XDG_CONFIG_HOME, 'fux'), { recursive: true });
    fs.writeFileSync(path.join(home.env.XDG_CONFIG_HOME, 'fux', 'config.toml'), 'restore = "never"\n');
    home.cli(['new', '--', 'sleep', '30']);
    const pid = home.serverPid()!;
    process.kill(pid, 'SIGKILL');
    await until(() => !isAlive(pid), 10_000, 'the server to die');
    expect(fs.existsSync(home.socket)).toBe(true); // stale: nobody listens
    await expect(
      new Promise((resolve, reject) => net.connect(home.socket).on('connect', resolve).on('error', reject)),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const r = home.cli(['list', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ workspaces: [] });
    expect(home.serverPid()).not.toBe(pid);
  });

  test('kill-server with no server running says so and exits non-zero', () => {
    const r = home.cli(['kill-server']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no fux server is running/);
    expect(fs.existsSync(home.socket)).toBe(false);
  });

  test('fux serve runs the server in the foreground until interrupted', async () => {
    const child = home.spawnCli(['serve']);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => err.includes('listening on'), 10_000, 'the foreground server to listen');
    expect(home.cli(['list']).code).toBe(0);
    child.kill('SIGINT');
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(0);
    expect(fs.existsSync(home.socket)).toBe(false);
  });
});
