import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let ticks: number | undefined;

/** The kernel's clock ticks per second (CLK_TCK): the resolution of `cpuMs`. */
export function ticksPerSecond(): number {
  ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticks;
}

/** The CPU time (user + system) a process has used so far, in ms, from /proc/PID/stat. */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the ")" that ends the command name: utime and stime are fields 14 and 15 of stat(5).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond()) * 1000;
}

/** Per process, each thread's time on a CPU when last read, in ns: a thread that ends keeps its count. */
const threadTimes = new Map<number, Map<string, number>>();

/**
 * The time a process's threads have spent on a CPU so far, in ms, to the nanosecond: the first
 * field of each /proc/PID/task/TID/schedstat, summed. For a few hundred keystrokes, whose cost is
 * a fraction of a millisecond each, where stat's clock ticks (10 ms) are too coarse. A thread that
 * ends between two calls counts with what it had at the first (its last moments are lost).
 */
export function runMs(pid: number): number {
  let threads = threadTimes.get(pid);
  if (threads === undefined) threadTimes.set(pid, (threads = new Map()));
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  let ns = 0;
  for (const time of threads.values()) ns += time;
  return ns / 1e6;
}
