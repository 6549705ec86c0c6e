import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from '../../src/process-alive';

/**
 * Ends the processes an agent leaves behind when its pty closes (Codex's `app-server` daemon,
 * the child Gemini CLI relaunches itself as), and waits until they are gone (SIGKILL after
 * `graceMs`). Only processes whose environment has `name=value` (a run's private HOME or
 * CODEX_HOME) are touched, so another run's processes, or a user's, are never ended. Linux only:
 * it reads /proc/<pid>/environ.
 */
export async function endProcessesWithEnvironment(
  name: string,
  value: string,
  graceMs = 3000,
): Promise<number[]> {
  const pids = await processesWithEnvironment(name, value);
  signalAll(pids, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  signalAll(pids.filter(isAlive), 'SIGKILL');
  return pids;
}

function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone between the listing and the signal.
    }
  }
}

async function processesWithEnvironment(name: string, value: string): Promise<number[]> {
  const wanted = `${name}=${value}`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(join('/proc', entry, 'environ'), 'utf8').catch(() => '');
    if (environ.split('\0').includes(wanted)) pids.push(Number(entry));
  }
  return pids;
}
