import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let ticksPerSecond: number | undefined;

/** The CPU time (user + system) a process has used so far, in ms, from /proc/PID/stat. */
export function cpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the ")" that ends the command name: utime and stime are fields 14 and 15 of stat(5).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
}
