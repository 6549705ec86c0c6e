import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { FuxHome, serverMain, until } from '../helpers/home';
import { processStart } from '../../src/process-alive';

/**
 * Whether a server runs is decided by the socket; the lock's pid is only a hint (issue 27): a dead
 * owner that nobody reaps, or a pid reused by another process, must not stop the next start, and a
 * live process in the way is named at once instead of a start that times out.
 */
let home: FuxHome;
const others: ChildProcess[] = [];
beforeEach(() => {
  home = new FuxHome();
});
afterEach(async () => {
  for (const c of others.splice(0)) c.kill('SIGKILL');
  await home.close();
});

const answers = (socket: string): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = net.createConnection({ path: socket });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });

const state = (pid: number): string | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

/** A process that lives on and is nothing to fux. */
const bystander = (): ChildProcess => {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  others.push(child);
  return child;
};

const lock = (): string => `${home.socket}.pid`;

const linux = process.platform === 'linux' ? test : test.skip;

describe('starting a server over what a dead one left', () => {
  linux(
    'a killed server that is an unreaped zombie does not stop the next verb from starting one',
    async () => {
      // Its parent is a process that never waits for children, as in a container without an init.
      const parent = spawn(
        'sh',
        [
          '-c',
          `"${process.execPath}" "${serverMain}" --socket "${home.socket}" --foreground & exec sleep 600`,
        ],
        { env: home.env, stdio: 'ignore' },
      );
      others.push(parent);
      await until(
        () => answers(home.socket).then((up) => up || undefined),
        20_000,
        'the first server to listen',
      );
      const dead = home.serverPid()!;
      process.kill(dead, 'SIGKILL');
      await until(() => state(dead) === 'Z' || undefined, 10_000, 'the killed server to be a zombie');

      const r = home.cli(['list', '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(home.serverPid()).not.toBe(dead);
      expect(state(dead)).toBe('Z'); // still unreaped: the new server did not need it gone
    },
  );

  linux('a lock whose pid now belongs to another process is taken over', () => {
    const other = bystander();
    fs.mkdirSync(path.dirname(home.socket), { recursive: true, mode: 0o700 });
    // The pid is alive, but it is not the process that wrote the lock: its start differs.
    fs.writeFileSync(lock(), `${other.pid} 1\n`, { mode: 0o600 });
    const r = home.cli(['list', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(home.serverPid()).not.toBe(other.pid);
  });

  linux('a live process holding the lock without a server is named in one line', async () => {
    const other = bystander();
    await until(() => processStart(other.pid!), 5000, 'the bystander to start');
    fs.mkdirSync(path.dirname(home.socket), { recursive: true, mode: 0o700 });
    fs.writeFileSync(lock(), `${other.pid} ${processStart(other.pid!)}\n`, { mode: 0o600 });
    const r = home.cli(['list']);
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `held by pid ${other.pid}, which is running but does not answer on .*; stop it \\(\`kill ${other.pid}\`\\)`,
      ),
    );
    // It was left alone.
    expect(other.exitCode).toBeNull();
  });
});
