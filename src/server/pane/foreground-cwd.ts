import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The working directory of the process in the foreground of a pty whose session leader is
 * `leaderPid`: the foreground process group (tpgid in /proc/<pid>/stat) is led by the process the
 * user is running (a shell's job, an agent), and its cwd is the one a new split should inherit.
 * Undefined where /proc cannot tell (not Linux, or the process is gone).
 */
export function foregroundCwd(leaderPid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const foreground = foregroundGroup(leaderPid);
  return (foreground === undefined ? undefined : cwdOf(foreground)) ?? cwdOf(leaderPid);
}

function foregroundGroup(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces or ')': fields are
  // counted from the last ')'. After it come state, ppid, pgrp, session, tty_nr, tpgid.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tpgid = Number(fields[5]);
  return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
}

function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}
