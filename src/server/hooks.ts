/**
 * Hooks: the config's `hooks`, shell commands the server starts when it boots and restarts (with
 * backoff) whenever they exit, for long-lived companions ("notify me on Slack", a status feeder).
 * Each runs `/bin/sh -c COMMAND` in its own process group with `FUX_SOCKET` set, its output
 * appended to the server log; the server stops them (the whole group: SIGTERM, then SIGKILL)
 * when it stops or when a config reload drops them. Their groups are recorded (HookRecord), so a
 * server that follows one killed with SIGKILL ends the hooks it left before starting its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Backoff, DEFAULT_BACKOFF, type BackoffConfig } from './backoff';
import type { HookRecord } from './hook-record';
import { isAlive } from '../process-alive';

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
  /** Where running hooks are written down for the next server; none in tests that do not care. */
  readonly record?: HookRecord;
}

/** How long a hook has to exit after SIGTERM before its group is killed. */
const STOP_GRACE_MS = 3000;

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** SIGTERM to the group, then SIGKILL if it has not `exited` within the grace. */
async function endGroup(pgid: number, exited: Promise<void>): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  let grace: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    grace = setTimeout(() => {
      signalGroup(pgid, 'SIGKILL');
      resolve();
    }, STOP_GRACE_MS);
  });
  await Promise.race([exited, killed]);
  clearTimeout(grace);
}

/** Resolves when a process that is not our child is gone (polled: there is no exit event for it). */
async function gone(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}

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
    const pid = child.pid;
    if (pid !== undefined) this.options.record?.add(pid);
    this.options.log.info(`hook started (pid ${pid ?? '?'}): ${this.command}`);
    this.exited = new Promise<void>((resolve) => {
      let done = false;
      const ended = (how: string): void => {
        if (done) return;
        done = true;
        this.child = undefined;
        if (pid !== undefined) this.options.record?.remove(pid);
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
    const pid = this.child?.pid;
    if (pid === undefined) return;
    await endGroup(pid, this.exited);
    await this.exited;
  }
}

export class Hooks {
  /** Running hooks by command; a command listed twice runs twice (`cmd`, `cmd#2`). */
  private readonly running = new Map<string, Hook>();

  constructor(private readonly options: HooksOptions) {}

  /** End the hooks a previous server on this socket left running (it was killed before it could). */
  async endLeftovers(): Promise<void> {
    const left = this.options.record?.leftovers() ?? [];
    for (const pid of left) this.options.log.warn(`ending hook group ${pid} left by a previous server`);
    await Promise.all(left.map((pid) => endGroup(pid, gone(pid))));
  }

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
