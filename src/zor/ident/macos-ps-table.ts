/**
 * The process table on macOS, read through `ps` (Node has no proc_pidinfo or sysctl). `ps` prints
 * argv space-joined, so arguments containing spaces split wrongly; normalisation only needs the
 * runtime's flags and the script path, which rarely contain spaces. The `args` column comes from
 * the process's argument block, so a runtime's changed `process.title` shows up as argv[0].
 */
import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import type { Job, ProcessInfo, ProcessTable } from './process-table';

/** Runs `ps` with the given arguments; `undefined` when it fails (no such process, no `ps`). */
export type PsRunner = (args: readonly string[]) => string | undefined;

export const runPs: PsRunner = (args) => {
  try {
    return execFileSync('ps', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
};

interface PsRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly tpgid: number;
  readonly comm: string;
}

/** Parses `ps -o pid=,ppid=,pgid=,tpgid=,comm=` output; comm is last because it may hold spaces. */
export function parsePsRows(text: string): PsRow[] {
  return text
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(.+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      pgid: Number(match[3]),
      tpgid: Number(match[4]),
      comm: basename(match[5]!.trim()),
    }));
}

/** Parses `ps -o pid=,command=` output into pid → the rest of the line. */
export function parsePidLines(text: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s(.*)$/.exec(line);
    if (match) lines.set(Number(match[1]), match[2]!.trim());
  }
  return lines;
}

/** `ps -E` appends the environment to the command line; ZOR_AGENT is read from it. */
export function agentFromEnvironmentLine(line: string): string | undefined {
  const match = /(?:^|\s)ZOR_AGENT=(\S+)/.exec(line);
  return match?.[1];
}

const ROW_COLUMNS = 'pid=,ppid=,pgid=,tpgid=,comm=';

export class MacPsTable implements ProcessTable {
  constructor(private readonly run: PsRunner = runPs) {}

  foregroundPgid(child: number): number | undefined {
    const row = parsePsRows(this.run(['-o', ROW_COLUMNS, '-p', String(child)]) ?? '')[0];
    return row !== undefined && row.tpgid > 0 ? row.tpgid : undefined;
  }

  leader(pgid: number): ProcessInfo | undefined {
    const row = parsePsRows(this.run(['-o', ROW_COLUMNS, '-p', String(pgid)]) ?? '')[0];
    return row?.pgid === pgid ? this.describe([row])[0] : undefined;
  }

  job(_child: number, pgid: number): Job {
    const rows = parsePsRows(this.run(['-A', '-o', ROW_COLUMNS]) ?? '')
      .filter((row) => row.pgid === pgid)
      .sort((a, b) => Number(b.pid === pgid) - Number(a.pid === pgid) || a.pid - b.pid);
    return { leader: pgid, processes: this.describe(rows) };
  }

  private describe(rows: readonly PsRow[]): ProcessInfo[] {
    if (rows.length === 0) return [];
    const pids = rows.map((row) => row.pid).join(',');
    const args = parsePidLines(this.run(['-ww', '-o', 'pid=,args=', '-p', pids]) ?? '');
    const environments = parsePidLines(this.run(['-E', '-ww', '-o', 'pid=,command=', '-p', pids]) ?? '');
    return rows.map((row) => {
      const argv = (args.get(row.pid) ?? '').split(/\s+/).filter((word) => word !== '');
      const environment = environments.get(row.pid);
      return {
        pid: row.pid,
        ppid: row.ppid,
        pgrp: row.pgid,
        comm: row.comm,
        argv,
        argv0: argv[0] === undefined ? undefined : basename(argv[0]),
        envAgent: environment === undefined ? undefined : agentFromEnvironmentLine(environment),
      };
    });
  }
}
