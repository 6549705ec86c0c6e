import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { onCleanup } from './cleanup';
import { resident, type Resident } from './memory';
import { tmuxBin } from './repo';
import { TmuxControl } from './tmux-control';
import { until } from './wait';
import { isAlive } from '../../src/process-alive';

const run = promisify(execFile);

export interface TmuxServerOptions {
  /** Lines of history per pane (tmux's default is 2000; fux keeps 10 000). */
  historyLimit: number;
  cols: number;
  rows: number;
}

let serial = 0;

/**
 * A private tmux server (`tmux -L NAME -f /dev/null`: its own socket, no user config). It starts
 * with a session `ctl` holding one idle `cat`, which keeps the server up and gives control
 * clients a session to sit in that carries no benchmark output. Options are set right after, so
 * every pane the benchmarks create gets them.
 */
export class TmuxServer {
  /** The argv prefix of every tmux command for this server. */
  readonly argv: string[];
  readonly env: NodeJS.ProcessEnv;
  private readonly unregister: () => void;

  private constructor(
    readonly name: string,
    readonly pid: number,
    env: NodeJS.ProcessEnv,
  ) {
    this.argv = [tmuxBin, '-L', name, '-f', '/dev/null'];
    this.env = env;
    this.unregister = onCleanup(() => this.stop());
  }

  static async start(options: TmuxServerOptions): Promise<TmuxServer> {
    const name = `fux-bench-${process.pid}-${++serial}`;
    // Inside tmux, TMUX would make some commands act on the user's server; SHELL makes panes alike.
    const env: NodeJS.ProcessEnv = { ...process.env, SHELL: '/bin/sh' };
    delete env.TMUX;
    const argv = ['-L', name, '-f', '/dev/null'];
    // `window-size manual` is avoided: with it, tmux 3.3a segfaults on a later new-session.
    await run(
      tmuxBin,
      [
        ...argv,
        ...['new-session', '-d', '-s', 'ctl', '-x', String(options.cols), '-y', String(options.rows), 'cat'],
        ...[';', 'set-option', '-g', 'default-size', `${options.cols}x${options.rows}`],
        ...[';', 'set-option', '-g', 'history-limit', String(options.historyLimit)],
      ],
      { env },
    );
    const { stdout } = await run(tmuxBin, [...argv, 'display-message', '-p', '#{pid}'], { env });
    return new TmuxServer(name, Number(stdout.trim()), env);
  }

  /** Run one tmux command (a new client process) and return its stdout. */
  async tmux(args: string[]): Promise<string> {
    const { stdout } = await run(this.argv[0]!, [...this.argv.slice(1), ...args], { env: this.env });
    return stdout;
  }

  /** A session of `cols`×`rows` whose first window runs `argv`; returns that pane's id (`%N`). */
  async newSession(name: string, argv: string[], cols: number, rows: number): Promise<string> {
    const out = await this.tmux([
      ...['new-session', '-d', '-s', name, '-x', String(cols), '-y', String(rows), '-P', '-F', '#{pane_id}'],
      ...argv,
    ]);
    return out.trim();
  }

  /** A new window (one full-size pane) in `session` running `argv` directly, without a shell. */
  async newWindow(session: string, argv: string[]): Promise<string> {
    const out = await this.tmux(['new-window', '-d', '-t', `${session}:`, '-P', '-F', '#{pane_id}', ...argv]);
    return out.trim();
  }

  control(session = 'ctl'): Promise<TmuxControl> {
    return TmuxControl.attach(this.argv, session, this.env);
  }

  resident(): Resident {
    return resident(this.pid);
  }

  async stop(): Promise<void> {
    this.unregister();
    try {
      await this.tmux(['kill-server']);
    } catch {
      return; // already gone
    }
    await until(() => (isAlive(this.pid) ? undefined : true), `tmux server ${this.pid} to exit`, 60_000, 20);
  }
}
