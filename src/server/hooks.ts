/**
 * Hooks: the config's `hooks`, shell commands the server starts when it boots and restarts (with
 * backoff) whenever they exit, for long-lived companions ("notify me on Slack", a status feeder).
 * Each runs `/bin/sh -c COMMAND` in its own process group with `FUX_SOCKET` set, its output
 * appended to the server log; the server stops them (the whole group: SIGTERM, then SIGKILL)
 * when it stops or when a config reload drops them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Backoff, DEFAULT_BACKOFF, type BackoffConfig } from './backoff';

export interface HookLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface HooksOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Where hooks' stdout and stderr go: an open file descriptor (the server log), or nowhere. */
  readonly output: number | 'ignore';
  readonly log: HookLog;
  readonly backoff?: BackoffConfig;
}

/** How long a hook has to exit after SIGTERM before its group is killed. */
const STOP_GRACE_MS = 3000;

class Hook {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private restart: NodeJS.Timeout | undefined;
  private stopping = false;
  private readonly backoff: Backoff;

  constructor(
    readonly command: string,
    private readonly options: HooksOptions,
  ) {
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF);
  }

  start(): void {
    if (this.stopping) return;
    const started = Date.now();
    const child = spawn('/bin/sh', ['-c', this.command], {
      env: this.options.env,
      cwd: this.options.cwd,
      stdio: ['ignore', this.options.output, this.options.output],
      // Its own process group, so stopping it reaches whatever it started.
      detached: true,
    });
    this.child = child;
    this.options.log.info(`hook started (pid ${child.pid ?? '?'}): ${this.command}`);
    this.exited = new Promise<void>((resolve) => {
      let done = false;
      const ended = (how: string): void => {
        if (done) return;
        done = true;
        this.child = undefined;
        resolve();
        if (this.stopping) return;
        const delay = this.backoff.next(Date.now() - started);
        this.options.log.warn(`hook ${how}; restarting in ${delay} ms: ${this.command}`);
        this.restart = setTimeout(() => this.start(), delay);
      };
      child.once('error', (error) => ended(`could not start (${error.message})`));
      child.once('exit', (code, signal) => ended(signal === null ? `exited ${code}` : `killed by ${signal}`));
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restart);
    const child = this.child;
    if (child?.pid === undefined) return;
    const signalGroup = (signal: NodeJS.Signals): void => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group is already gone
      }
    };
    signalGroup('SIGTERM');
    let grace: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      grace = setTimeout(() => {
        signalGroup('SIGKILL');
        resolve();
      }, STOP_GRACE_MS);
    });
    await Promise.race([this.exited, killed]);
    clearTimeout(grace);
    await this.exited;
  }
}

export class Hooks {
  /** Running hooks by command; a command listed twice runs twice (`cmd`, `cmd#2`). */
  private readonly running = new Map<string, Hook>();

  constructor(private readonly options: HooksOptions) {}

  /** Make the running hooks these: start the new ones, stop the ones no longer listed. */
  async set(commands: readonly string[]): Promise<void> {
    const wanted = new Map<string, string>();
    const seen = new Map<string, number>();
    for (const command of commands) {
      const n = (seen.get(command) ?? 0) + 1;
      seen.set(command, n);
      wanted.set(n === 1 ? command : `${command}#${n}`, command);
    }
    const dropped = [...this.running].filter(([key]) => !wanted.has(key));
    for (const [key] of dropped) this.running.delete(key);
    for (const [key, command] of wanted) {
      if (this.running.has(key)) continue;
      const hook = new Hook(command, this.options);
      this.running.set(key, hook);
      hook.start();
    }
    await Promise.all(dropped.map(([, hook]) => hook.stop()));
  }

  stopAll(): Promise<void> {
    return this.set([]);
  }
}
