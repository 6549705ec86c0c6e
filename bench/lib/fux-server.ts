import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, NoServerError, type Connection } from '../../src/client';
import { SERVER_NODE_OPTIONS } from '../../src/client/server-process';
import { onCleanup } from './cleanup';
import { resident, type Resident } from './memory';
import { serverMain } from './repo';
import { until, within } from './wait';

export interface FuxServerOptions {
  /** Run the server under `node --cpu-prof`, writing its profile here when it stops. */
  cpuProfileDir?: string;
  /** The home of a server that was killed (`crash`): the next one finds its state (a journal). */
  home?: string;
  /** The server's config.toml (`$XDG_CONFIG_HOME/fux/config.toml`), written before it starts. */
  config?: string;
}

/**
 * A fux server in a private home: its own runtime (0700), state and config dirs and socket in a
 * temp dir, so the bench never touches the user's server. Started in the foreground as our child
 * (so its pid is known and nothing is left daemonised), stopped with SIGTERM like `kill-server`.
 */
export class FuxServer {
  /** The environment of anything that should talk to this server: the CLI, `node -e 0`. */
  readonly env: Record<string, string>;
  private readonly unregister: () => void;

  private constructor(
    readonly home: string,
    readonly socket: string,
    private readonly child: ChildProcess,
    env: Record<string, string>,
  ) {
    this.env = env;
    this.unregister = onCleanup(() => this.stop());
  }

  static async start(options: FuxServerOptions = {}): Promise<FuxServer> {
    const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-'));
    const runtime = path.join(home, 'run');
    fs.mkdirSync(runtime, { recursive: true, mode: 0o700 });
    const socket = path.join(runtime, 'fux', 'fux.sock');
    const env: Record<string, string> = {};
    // Inherited FUX_* (a bench started inside a fux pane) would point the panes at the wrong server.
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
    Object.assign(env, {
      XDG_RUNTIME_DIR: runtime,
      XDG_STATE_HOME: path.join(home, 'state'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      FUX_SOCKET: socket,
      SHELL: '/bin/sh',
    });
    if (options.config !== undefined) {
      const dir = path.join(env.XDG_CONFIG_HOME!, 'fux');
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(dir, 'config.toml'), options.config, { mode: 0o600 });
    }
    const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
    const log = fs.openSync(path.join(home, 'server.out'), 'w');
    // The options a server started by fux runs with, so the bench measures that server.
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_OPTIONS, ...profile, serverMain, '--socket', socket, '--foreground'],
      {
        env,
        cwd: home,
        stdio: ['ignore', log, log],
      },
    );
    fs.closeSync(log);
    const server = new FuxServer(home, socket, child, env);
    try {
      const probe = await until(() => server.probe(), `the fux server to listen on ${socket}`, 15_000, 20);
      probe.close();
    } catch (err) {
      await server.stop();
      throw err;
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** A long-lived typed-client connection, as a user script holds one. */
  connect(): Promise<Connection> {
    return connect({ socket: this.socket, autostart: false });
  }

  resident(): Resident {
    return resident(this.pid);
  }

  /** SIGKILL, as a crash: the home stays for the next server (`start({ home })`). */
  async crash(): Promise<void> {
    this.unregister();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM (panes get SIGHUP, a profile is written), SIGKILL if it hangs; then the home goes. */
  async stop(): Promise<void> {
    this.unregister();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      try {
        await within(exited, 10_000, 'the fux server to stop');
      } catch {
        this.child.kill('SIGKILL');
        await exited;
      }
    }
    fs.rmSync(this.home, { recursive: true, force: true });
  }

  private async probe(): Promise<Connection | undefined> {
    if (this.child.exitCode !== null) {
      const out = fs.readFileSync(path.join(this.home, 'server.out'), 'utf8');
      throw new Error(`the fux server exited with ${this.child.exitCode} before listening:\n${out}`);
    }
    try {
      return await this.connect();
    } catch (err) {
      if (err instanceof NoServerError) return undefined;
      throw err;
    }
  }
}
