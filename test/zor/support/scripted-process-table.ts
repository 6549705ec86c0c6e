import type { Job, ProcessInfo, ProcessTable } from '../../../src/zor/ident/process-table';

/**
 * A process table a test scripts: set the foreground group and the processes, and count how often
 * zor looked (the per-tick pgid read versus the probe's job listing).
 */
export class ScriptedProcessTable implements ProcessTable {
  pgid: number | undefined;
  processes: ProcessInfo[] = [];
  pgidReads = 0;
  leaderReads = 0;
  jobReads = 0;
  /** The leader the last job listing was given, if any. */
  jobLeader: ProcessInfo | undefined;

  constructor(pgid: number | undefined, processes: ProcessInfo[] = []) {
    this.pgid = pgid;
    this.processes = processes;
  }

  /** Sets the foreground job: its group id and its members (their pgrp is set to the group). */
  foreground(pgid: number | undefined, ...members: Omit<ProcessInfo, 'pgrp'>[]): void {
    this.pgid = pgid;
    this.processes = members.map((member) => ({ ...member, pgrp: pgid ?? -1 }));
  }

  foregroundPgid(): number | undefined {
    this.pgidReads++;
    return this.pgid;
  }

  leader(pgid: number): ProcessInfo | undefined {
    this.leaderReads++;
    return this.processes.find((process) => process.pid === pgid && process.pgrp === pgid);
  }

  job(_child: number, pgid: number, leader?: ProcessInfo): Job {
    this.jobReads++;
    this.jobLeader = leader;
    return { leader: pgid, processes: this.processes.filter((process) => process.pgrp === pgid) };
  }

  get probes(): number {
    return this.leaderReads;
  }
}

export function proc(pid: number, comm: string, argv: string[] = [comm], extra: Partial<ProcessInfo> = {}) {
  return { pid, ppid: 1, comm, argv, ...extra };
}
