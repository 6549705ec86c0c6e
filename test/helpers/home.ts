import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, type Connection } from '../../src/client';
import { isAlive } from '../../src/process-alive';
import { until } from './wait-for';

export { until };

/** The repository root, where bin/ and dist/ are (integration tests run the built CLI and server). */
export const root = path.resolve(__dirname, '..', '..');
export const fuxBin = path.join(root, 'bin', 'fux');
export const serverMain = path.join(root, 'dist', 'server', 'main.js');

if (!fs.existsSync(serverMain)) {
  throw new Error(
    `${serverMain} is missing: run \`npm run build\` (npm test does) before the integration tests`,
  );
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A private fux home: its own runtime, state and config dirs and socket in a temp dir, so a test
 * never sees a user's server or another test's. `close()` kills whatever server it started.
 */
export class FuxHome {
  readonly dir: string;
  readonly socket: string;
  readonly env: Record<string, string>;
  private readonly children: ChildProcess[] = [];
  private readonly connections: Connection[] = [];

  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-test-'));
    const runtime = path.join(this.dir, 'run');
    fs.mkdirSync(runtime, { mode: 0o700 });
    this.socket = path.join(runtime, 'fux', 'fux.sock');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
    this.env = {
      ...env,
      XDG_RUNTIME_DIR: runtime,
      XDG_STATE_HOME: path.join(this.dir, 'state'),
      XDG_CONFIG_HOME: path.join(this.dir, 'config'),
      FUX_SOCKET: this.socket,
      SHELL: '/bin/sh',
    };
  }

  /** Run the built CLI, as a user would, with this home's environment. */
  cli(args: string[], opts: { env?: Record<string, string>; cwd?: string; input?: string } = {}): CliResult {
    const r = spawnSync(process.execPath, [fuxBin, ...args], {
      env: { ...this.env, ...opts.env },
      cwd: opts.cwd ?? this.dir,
      input: opts.input,
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  /** The CLI, asynchronously, for runs that overlap (start races) or stream (subscribe). */
  spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [fuxBin, ...args], { env: { ...this.env, ...env }, cwd: this.dir });
    this.children.push(child);
    return child;
  }

  /** Start a server in the foreground as a child, resolved once it listens. */
  async startServer(): Promise<ChildProcess> {
    const child = spawn(process.execPath, [serverMain, '--socket', this.socket, '--foreground'], {
      env: this.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.children.push(child);
    let err = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${err}`)));
    });
    return child;
  }

  /** A typed client on this home's socket (start the server first), closed with the home. */
  async client(): Promise<Connection['client']> {
    const c = await connect({ socket: this.socket, autostart: false });
    this.connections.push(c);
    return c.client;
  }

  serverPid(): number | undefined {
    try {
      return Number.parseInt(fs.readFileSync(`${this.socket}.pid`, 'utf8'), 10);
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.close();
    const pid = this.serverPid();
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await until(() => !isAlive(pid), 5000).catch(() => process.kill(pid, 'SIGKILL'));
    }
    for (const c of this.children) if (c.exitCode === null) c.kill('SIGKILL');
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Open `count` raw connections to `socket` in waves of 100 and drop each as soon as it connects.
 * Returns how many were accepted (the rest met a full backlog, which is the point of a flood).
 */
export async function openAndDrop(socket: string, count: number): Promise<number> {
  let accepted = 0;
  for (let done = 0; done < count; done += 100) {
    await Promise.all(
      Array.from(
        { length: Math.min(100, count - done) },
        () =>
          new Promise<void>((resolve) => {
            const s = net.connect(socket);
            s.on('connect', () => {
              accepted++;
              s.destroy();
            });
            s.on('error', () => resolve());
            s.on('close', () => resolve());
          }),
      ),
    );
  }
  return accepted;
}
