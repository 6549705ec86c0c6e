import * as fs from 'node:fs';
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
 * The resident set once it has stopped moving: a server that has just parsed megabytes may still
 * be collecting garbage. Sampled every 250 ms until two samples a second apart differ by < 1 %,
 * or `timeoutMs` passes (then the last sample, which is still a fair reading of a busy server).
 */
export async function settledResident(pid: number, timeoutMs = 10_000): Promise<Resident> {
  const deadline = Date.now() + timeoutMs;
  const samples: Resident[] = [resident(pid)];
  for (;;) {
    await sleep(250);
    const now = resident(pid);
    samples.push(now);
    const secondAgo = samples[samples.length - 5];
    if (secondAgo && Math.abs(now.rss - secondAgo.rss) < 0.01 * now.rss) return now;
    if (Date.now() > deadline) return now;
  }
}
