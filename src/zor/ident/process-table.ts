/**
 * What identification needs from the operating system, behind one interface so the same logic
 * runs over /proc (Linux), `ps` (macOS) and a scripted table in tests.
 */

export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** The process group. */
  readonly pgrp: number;
  /** The kernel's short name for the process (Linux `comm`; the executable's basename on macOS). */
  readonly comm: string;
  readonly argv: readonly string[];
  /** The process title from the argument block (macOS only: a runtime's `process.title` shows here). */
  readonly argv0?: string | undefined;
  /** The `ZOR_AGENT` variable from the process's environment, when readable. */
  readonly envAgent?: string | undefined;
  /** The working directory, when readable: relative script paths resolve against it. */
  readonly cwd?: string | undefined;
  /** The executable's path, when known: a direct binary's symlink target is read from it. */
  readonly exe?: string | undefined;
}

/** The processes of one process group: the foreground job of a pty. */
export interface Job {
  /** The group id, which is the group leader's pid. */
  readonly leader: number;
  readonly processes: readonly ProcessInfo[];
}

export interface ProcessTable {
  /** The foreground process group of the terminal `child` is on; cheap, read every tick. */
  foregroundPgid(child: number): number | undefined;
  /** The group's leader alone: the cheap lookup tried before a full listing. */
  leader(pgid: number): ProcessInfo | undefined;
  /**
   * Every process in group `pgid` reachable from `child` or the leader; empty when the listing
   * fails. `leader`, when given, is the group's leader as `leader(pgid)` has just read it: a table
   * that reads process by process need not read it again.
   */
  job(child: number, pgid: number, leader?: ProcessInfo): Job;
}
