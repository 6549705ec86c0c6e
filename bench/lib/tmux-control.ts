import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as readline from 'node:readline';
import { onCleanup } from './cleanup';
import { within } from './wait';

interface PendingCommand {
  line: string;
  resolve(body: string[]): void;
  reject(error: Error): void;
}

interface OpenBlock {
  number: string;
  /** Flag 1 marks the reply to a command this client sent (0: the attach command's own block). */
  ours: boolean;
  body: string[];
}

type OutputListener = (paneId: string, data: string, at: number) => void;

/** `%output` escapes bytes below 32 and the backslash as three octal digits. */
export function decodeOutput(escaped: string): string {
  return escaped.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * A tmux control-mode client (`tmux -C attach -t SESSION`): the long-lived connection tmux offers
 * scripts. Commands are lines on stdin; each reply is a `%begin … %end` (or `%error`) block, in
 * order; `%output %PANE data` lines carry the output of the attached session's panes as it is
 * read. Output of panes in other sessions is not sent, which the benchmarks use to keep a flood
 * off this connection.
 */
export class TmuxControl {
  private readonly queue: PendingCommand[] = [];
  private readonly outputListeners = new Set<OutputListener>();
  private block: OpenBlock | undefined;
  private exited: Error | undefined;
  private readonly unregister: () => void;

  private constructor(private readonly child: ChildProcess) {
    this.unregister = onCleanup(() => this.close());
    const lines = readline.createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => this.receive(line));
    child.once('exit', (code, signal) => {
      this.exited = new Error(`tmux control client exited (${signal ?? code})`);
      for (const cmd of this.queue.splice(0)) cmd.reject(this.exited);
    });
  }

  static async attach(tmuxArgs: string[], session: string, env: NodeJS.ProcessEnv): Promise<TmuxControl> {
    const child = spawn(tmuxArgs[0]!, [...tmuxArgs.slice(1), '-C', 'attach-session', '-t', session], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const control = new TmuxControl(child);
    // The first command's reply means the attach is done and the client is in the session.
    await within(
      control.command('display-message -p "#{session_name}"'),
      5_000,
      'tmux control mode to attach',
    );
    return control;
  }

  /** The control client's process (`tmux -C`), whose CPU is part of what a keystroke costs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Send one command line; resolves with its output lines, rejects on `%error`. */
  command(line: string): Promise<string[]> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.child.stdin!.write(`${line}\n`);
    });
  }

  /** Be told of every `%output` line, stamped on receipt; returns the unsubscribe. */
  onOutput(listener: OutputListener): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  /** Closing stdin detaches the client; tmux exits it. */
  async close(): Promise<void> {
    this.unregister();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin!.end();
    try {
      await within(exited, 5_000, 'the tmux control client to detach');
    } catch {
      this.child.kill('SIGKILL');
      await exited;
    }
  }

  private receive(line: string): void {
    const at = performance.now();
    if (this.block) {
      const [tag, , number] = line.split(' ');
      if ((tag === '%end' || tag === '%error') && number === this.block.number)
        this.finishBlock(tag === '%end');
      else this.block.body.push(line);
      return;
    }
    if (line.startsWith('%begin ')) {
      const [, , number, flags] = line.split(' ');
      this.block = { number: number!, ours: (Number(flags) & 1) === 1, body: [] };
    } else if (line.startsWith('%output ')) {
      const space = line.indexOf(' ', 8);
      const pane = line.slice(8, space);
      const data = decodeOutput(line.slice(space + 1));
      for (const listener of this.outputListeners) listener(pane, data, at);
    }
  }

  private finishBlock(ok: boolean): void {
    const block = this.block!;
    this.block = undefined;
    if (!block.ours) return;
    const cmd = this.queue.shift();
    if (!cmd) return;
    if (ok) cmd.resolve(block.body);
    else cmd.reject(new Error(`tmux: ${cmd.line}: ${block.body.join(' ')}`));
  }
}
