/**
 * The process table from Linux's /proc. Every read is synchronous and small (a stat line, a
 * cmdline), so the per-tick foreground lookup costs one file read.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import type { Job, ProcessInfo, ProcessTable } from './process-table';

/** The kernel truncates `comm` to 15 bytes; a longer program name is recovered from argv[0]. */
const COMM_LIMIT = 15;

interface StatFields {
  readonly comm: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly tpgid: number;
}

/** Parses /proc/<pid>/stat. `comm` may contain spaces and parentheses, so fields follow the last `)`. */
export function parseStat(text: string): StatFields | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // After ")": state ppid pgrp session tty_nr tpgid ...
  const fields = text.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  const tpgid = Number(fields[5]);
  if (![ppid, pgrp, tpgid].every(Number.isInteger)) return undefined;
  return { comm: text.slice(open + 1, close), ppid, pgrp, tpgid };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function nulSeparated(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function fullComm(comm: string, argv: readonly string[]): string {
  const argv0 = argv[0] === undefined ? '' : basename(argv[0]);
  return comm.length === COMM_LIMIT && argv0.length > COMM_LIMIT && argv0.startsWith(comm) ? argv0 : comm;
}

export class LinuxProcTable implements ProcessTable {
  constructor(private readonly procRoot = '/proc') {}

  foregroundPgid(child: number): number | undefined {
    const stat = this.stat(child);
    // tpgid reads -1 (or 0) when the process has no controlling terminal. The seed falls back to
    // tcgetpgrp on the pty master here; Node exposes no tcgetpgrp, and the pane's own process
    // always has the pty as its controlling terminal, so this case means the child is gone.
    return stat !== undefined && stat.tpgid > 0 ? stat.tpgid : undefined;
  }

  leader(pgid: number): ProcessInfo | undefined {
    const process = this.process(pgid);
    return process?.pgrp === pgid ? process : undefined;
  }

  job(child: number, pgid: number, leader?: ProcessInfo): Job {
    const processes: ProcessInfo[] = [];
    const seen = new Set<number>();
    const queue = [pgid, child];
    while (queue.length > 0) {
      const pid = queue.shift()!;
      if (seen.has(pid)) continue;
      seen.add(pid);
      // The leader the probe has just read (five /proc reads) is not read again.
      const process = pid === pgid && leader?.pid === pgid ? leader : this.process(pid);
      if (process === undefined) continue;
      if (process.pgrp === pgid) processes.push(process);
      const children = this.children(pid);
      if (children === undefined) return this.scanGroup(pgid);
      queue.push(...children);
    }
    return { leader: pgid, processes };
  }

  private stat(pid: number): StatFields | undefined {
    const text = readText(`${this.procRoot}/${pid}/stat`);
    return text === undefined ? undefined : parseStat(text);
  }

  private process(pid: number): ProcessInfo | undefined {
    const stat = this.stat(pid);
    if (stat === undefined) return undefined;
    const argv = nulSeparated(readText(`${this.procRoot}/${pid}/cmdline`));
    // environ is readable only for our own processes; another user's agent is matched by name.
    const envAgent = nulSeparated(readText(`${this.procRoot}/${pid}/environ`))
      .find((entry) => entry.startsWith('ZOR_AGENT='))
      ?.slice('ZOR_AGENT='.length);
    return {
      pid,
      ppid: stat.ppid,
      pgrp: stat.pgrp,
      comm: fullComm(stat.comm, argv),
      argv,
      envAgent: envAgent === '' ? undefined : envAgent,
      cwd: readLink(`${this.procRoot}/${pid}/cwd`),
      exe: readLink(`${this.procRoot}/${pid}/exe`),
    };
  }

  /**
   * Children of every thread of `pid` (a child is listed under the thread that forked it), or
   * `undefined` when the kernel lacks /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN off).
   */
  private children(pid: number): number[] | undefined {
    let threads: string[];
    try {
      threads = readdirSync(`${this.procRoot}/${pid}/task`);
    } catch {
      return [];
    }
    const children: number[] = [];
    for (const tid of threads) {
      const text = readText(`${this.procRoot}/${pid}/task/${tid}/children`);
      if (text === undefined) return undefined;
      for (const entry of text.split(' ')) if (entry !== '') children.push(Number(entry));
    }
    return children;
  }

  /** Without the children files, every process's stat is read: a few hundred small reads per probe. */
  private scanGroup(pgid: number): Job {
    let entries: string[];
    try {
      entries = readdirSync(this.procRoot);
    } catch {
      return { leader: pgid, processes: [] };
    }
    const members = entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => this.stat(pid)?.pgrp === pgid)
      // Leader first, then by pid: the closest thing to "earliest process" without a walk.
      .sort((a, b) => Number(b === pgid) - Number(a === pgid) || a - b)
      .map((pid) => this.process(pid))
      .filter((process): process is ProcessInfo => process !== undefined && process.pgrp === pgid);
    return { leader: pgid, processes: members };
  }
}
