import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * Whether a process exists: signal 0 checks without sending anything. EPERM means it exists but is
 * not ours to signal, which still means alive. (A zombie counts as alive until its parent reaps it:
 * `isRunning` tells the two apart.)
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One process's state letter and start, as the OS says them; undefined if it is gone. */
function processStat(pid: number): { state: string; start: string } | undefined {
  try {
    if (process.platform === 'linux') {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis start at field 3 (the state);
      // starttime is field 22.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { state: fields[0] ?? '', start: fields[19] ?? '' };
    }
    const out = execFileSync('ps', ['-o', 'stat=', '-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
    }).trim();
    if (out === '') return undefined;
    const [state = '', ...start] = out.split(/\s+/);
    return { state, start: start.join(' ') };
  } catch {
    return undefined;
  }
}

/** When a process started (a token compared for equality, not a time); undefined if gone. */
export function processStart(pid: number): string | undefined {
  return processStat(pid)?.start;
}

/**
 * Whether `pid` is still the process that was recorded: running (a zombie, dead but not yet
 * reaped by its parent, is not: in a container without an init it may never be), and, when its
 * start was recorded, started then (a pid reused since is someone else).
 */
export function isRunning(pid: number, start?: string): boolean {
  if (!isAlive(pid)) return false;
  const stat = processStat(pid);
  if (stat === undefined) return true; // alive, but the OS would not say more: trust the signal
  if (stat.state.startsWith('Z') || stat.state.startsWith('X')) return false;
  return start === undefined || stat.start === start;
}
