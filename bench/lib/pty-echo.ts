import { performance } from 'node:perf_hooks';
import * as pty from 'node-pty';
import { sleep, within } from './wait';

/**
 * node-pty on its own, in this process: write one key to a `cat` on a pty and time until the
 * tty's echo is read back. The floor under fux's echo path (no rpc, no parser, no events).
 */
export async function ptyEchoTimes(count: number, gapMs: number): Promise<number[]> {
  const child = pty.spawn('cat', [], {
    cols: 200,
    rows: 50,
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const echoed = new Promise<number>((resolve) => {
        const sub = child.onData(() => {
          sub.dispose();
          resolve(performance.now());
        });
      });
      const start = performance.now();
      child.write('x');
      times.push((await within(echoed, 5_000, 'the pty echo')) - start);
      await sleep(gapMs);
    }
    return times;
  } finally {
    child.kill('SIGKILL');
  }
}
