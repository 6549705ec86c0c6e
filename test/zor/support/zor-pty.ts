import * as pty from 'node-pty';
import { until } from '../../helpers/wait-for';
import { zorScript } from './zor-cli';

export interface PtyRun {
  readonly terminal: pty.IPty;
  /** Everything the program wrote, exactly (the pty's output processing is off). */
  output(): Buffer;
  text(): string;
  write(data: string): void;
  /** Lets a `held` command start. */
  start(): void;
  waitForText(needle: string | RegExp, what?: string): Promise<void>;
  readonly exited: Promise<{ exitCode: number; signal?: number }>;
}

const running: pty.IPty[] = [];

/**
 * Runs `zor ARGS…` (or, with `bare`, the command alone) in a real pty standing in for the user's
 * terminal. `stty -opost` first, so the bytes read here are exactly the bytes written.
 */
export async function runInPty(
  argv: readonly string[],
  options: {
    bare?: boolean;
    cols?: number;
    rows?: number;
    env?: NodeJS.ProcessEnv;
    /** Hold the command until `start()`, so a test can set up the terminal first. */
    held?: boolean;
  } = {},
): Promise<PtyRun> {
  const script = await zorScript();
  const quoted = (options.bare ? argv : [process.execPath, script, 'zor', ...argv]).map(
    (word) => `'${word.replace(/'/g, `'\\''`)}'`,
  );
  const hold = options.held ? ' && read _' : '';
  const terminal = pty.spawn('/bin/sh', ['-c', `stty -opost${hold} && exec ${quoted.join(' ')}`], {
    cols: options.cols ?? 100,
    rows: options.rows ?? 30,
    // A test run inside zor must not make the zor under test think it is nested.
    env: { ...process.env, ZOR_PID: '', ...options.env },
    encoding: null,
  });
  running.push(terminal);
  const chunks: Buffer[] = [];
  terminal.onData((data: string | Buffer) =>
    chunks.push(typeof data === 'string' ? Buffer.from(data) : data),
  );
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => terminal.onExit(resolve));
  const output = () => Buffer.concat(chunks);
  return {
    terminal,
    output,
    text: () => output().toString('utf8'),
    write: (data) => terminal.write(data),
    start: () => terminal.write('\n'),
    waitForText: async (needle, what) => {
      await until(
        () =>
          typeof needle === 'string'
            ? output().toString('utf8').includes(needle)
            : needle.test(output().toString('utf8')),
        10_000,
        what ?? `output ${String(needle)}`,
      );
    },
    exited,
  };
}

/** Kills whatever a test left running. */
export function killRunning(): void {
  for (const terminal of running.splice(0)) {
    try {
      terminal.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
