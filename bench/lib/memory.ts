import * as fs from 'node:fs';
import { cpuMs } from './cpu-time';
import { sleep } from './wait';

/** A process's resident set (VmRSS) and its peak (VmHWM), in bytes, from /proc. */
export interface Resident {
  rss: number;
  peak: number;
}

export function resident(pid: number): Resident {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/**
 * The resident set once the server has settled: a server that has just parsed megabytes may still
 * be collecting garbage, or (fux) compacting its panes' history in steps after a second of quiet,
 * and a resident set that holds still for a second while that work has not begun is not the
 * steady state. Sampled every 250 ms until, a second apart, the resident set differs by < 1 % and
 * the process used < 5 % of a core; or `timeoutMs` passes (then the last sample, which is still a
 * fair reading of a busy server). The same rule for fux and tmux.
 */
export async function settledResident(pid: number, timeoutMs = 10_000): Promise<Resident> {
  const deadline = Date.now() + timeoutMs;
  const samples: { resident: Resident; cpu: number }[] = [{ resident: resident(pid), cpu: cpuMs(pid) }];
  for (;;) {
    await sleep(250);
    const now = { resident: resident(pid), cpu: cpuMs(pid) };
    samples.push(now);
    const secondAgo = samples[samples.length - 5];
    const still =
      secondAgo !== undefined &&
      Math.abs(now.resident.rss - secondAgo.resident.rss) < 0.01 * now.resident.rss &&
      now.cpu - secondAgo.cpu < IDLE_CPU_MS_PER_SECOND;
    if (still || Date.now() > deadline) return now.resident;
  }
}

/** CPU time a settled process may still use in a second (timers, a poll): 5 % of a core. */
const IDLE_CPU_MS_PER_SECOND = 50;
