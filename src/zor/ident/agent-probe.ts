/**
 * The probe scheduler: when to look at the process table, and what a look means. Clock-injected
 * and synchronous; the caller calls `tick` at `nextTickAt` (or sooner) and acts on the events.
 *
 * Identification is polled because there is no portable event for "the foreground job changed".
 * Each tick reads only the foreground process group (cheap). The job listing (expensive) runs when
 * the group changes, every 5 s while identified (a process can exec in place), every 30 s when no
 * group can be read at all, and inside an acquisition window: for 8 s after the group changed while
 * unidentified, or after the screen changed with no agent, every 500 ms for the first 1.5 s and
 * every 2 s after, since an agent launch is likely then.
 *
 * Losing the agent: when the foreground job holds the pane's own process again (the shell is back),
 * the agent exited: `exited` at once, and `lost` at the next probe. When the foreground job is
 * something else with no agent in it (the agent shelled out, the listing failed), the agent is kept
 * until six probes in a row miss it, so a subprocess does not flicker the indicator.
 */
import type { RuleSet } from '../rules/rule-set';
import { identify, realPath, type Identification, type PathResolver } from './identify';
import type { Job, ProcessTable } from './process-table';

/** herdr's cadences, adopted as numbers. */
export interface ProbeConfig {
  readonly unidentifiedTickMs: number;
  readonly identifiedTickMs: number;
  /** While the state machine holds a pending idle. */
  readonly holdTickMs: number;
  readonly reprobeMs: number;
  readonly noGroupReprobeMs: number;
  readonly acquisitionMs: number;
  readonly acquisitionFastPhaseMs: number;
  readonly acquisitionFastEveryMs: number;
  readonly acquisitionSlowEveryMs: number;
  readonly missesToLose: number;
}

export const DEFAULT_PROBE_CONFIG: ProbeConfig = {
  unidentifiedTickMs: 500,
  identifiedTickMs: 300,
  holdTickMs: 100,
  reprobeMs: 5000,
  noGroupReprobeMs: 30_000,
  acquisitionMs: 8000,
  acquisitionFastPhaseMs: 1500,
  acquisitionFastEveryMs: 500,
  acquisitionSlowEveryMs: 2000,
  missesToLose: 6,
};

export type ProbeEvent =
  | { readonly kind: 'found'; readonly agent: string; readonly pid: number }
  | { readonly kind: 'exited'; readonly agent: string }
  | { readonly kind: 'lost'; readonly agent: string };

export interface ProbeOptions {
  readonly table: ProcessTable;
  readonly sets: readonly RuleSet[];
  /** The pane's own process (the shell or the command zor spawned). */
  readonly child: number;
  readonly now: number;
  readonly config?: ProbeConfig;
  readonly resolvePath?: PathResolver;
  /**
   * The set named by the command zor was given (`zor -- claude`), used only when the listing
   * comes back empty, so an unreadable process table still identifies the obvious case.
   */
  readonly fallbackAgent?: string | undefined;
}

export interface TickInput {
  /** The screen changed since the previous tick (opens the acquisition window while unidentified). */
  readonly screenChanged: boolean;
  readonly holdPending: boolean;
}

export class AgentProbe {
  private readonly config: ProbeConfig;
  private readonly resolvePath: PathResolver;
  private lastTick: number;
  private lastProbe = Number.NEGATIVE_INFINITY;
  private lastPgid: number | undefined;
  private current: Identification | undefined;
  private exitReported = false;
  private misses = 0;
  private acquisitionStart: number | undefined;
  /** Whether at least one tick has run: the first tick always probes. */
  private started = false;

  constructor(private readonly options: ProbeOptions) {
    this.config = options.config ?? DEFAULT_PROBE_CONFIG;
    this.resolvePath = options.resolvePath ?? realPath;
    this.lastTick = options.now;
  }

  get identified(): Identification | undefined {
    return this.current;
  }

  /** When the next tick is due: 100 ms during a hold, 300 ms while identified, 500 ms otherwise. */
  nextTickAt(holdPending: boolean): number {
    if (!this.started) return this.lastTick;
    const interval = holdPending
      ? this.config.holdTickMs
      : this.current !== undefined
        ? this.config.identifiedTickMs
        : this.config.unidentifiedTickMs;
    return this.lastTick + interval;
  }

  tick(now: number, input: TickInput): ProbeEvent[] {
    const first = !this.started;
    this.started = true;
    this.lastTick = now;
    const pgid = this.options.table.foregroundPgid(this.options.child);
    const pgidChanged = !first && pgid !== this.lastPgid;
    this.lastPgid = pgid;
    if (this.current === undefined) {
      if (pgidChanged) this.acquisitionStart = now;
      else if (input.screenChanged && !this.acquiring(now)) this.acquisitionStart = now;
    }
    if (!(first || pgidChanged || this.exitReported || this.probeDue(now, pgid))) return [];
    this.lastProbe = now;
    return this.probe(pgid ?? this.options.child);
  }

  private acquiring(now: number): boolean {
    return this.acquisitionStart !== undefined && now - this.acquisitionStart < this.config.acquisitionMs;
  }

  private probeDue(now: number, pgid: number | undefined): boolean {
    const sinceProbe = now - this.lastProbe;
    if (this.current !== undefined && sinceProbe >= this.config.reprobeMs) return true;
    if (pgid === undefined && sinceProbe >= this.config.noGroupReprobeMs) return true;
    if (this.current === undefined && this.acquiring(now)) {
      const intoWindow = now - this.acquisitionStart!;
      const every =
        intoWindow < this.config.acquisitionFastPhaseMs
          ? this.config.acquisitionFastEveryMs
          : this.config.acquisitionSlowEveryMs;
      return sinceProbe >= every;
    }
    return false;
  }

  private probe(pgid: number): ProbeEvent[] {
    const { table, sets, child } = this.options;
    // The leader alone is enough when it is the agent, which is the common case.
    const leader = table.leader(pgid);
    let found =
      leader === undefined
        ? undefined
        : identify({ leader: pgid, processes: [leader] }, sets, this.resolvePath);
    let job: Job | undefined;
    if (found === undefined) {
      job = table.job(child, pgid, leader);
      found = identify(job, sets, this.resolvePath);
      if (found === undefined && job.processes.length === 0 && this.options.fallbackAgent !== undefined) {
        found = { agent: this.options.fallbackAgent, pid: child };
      }
    }
    if (found !== undefined) return this.sawAgent(found);
    if (this.current === undefined) return [];
    const agent = this.current.agent;
    const shellIsBack = pgid === child || (job?.processes.some((process) => process.pid === child) ?? false);
    if (shellIsBack) {
      if (!this.exitReported) {
        this.exitReported = true;
        return [{ kind: 'exited', agent }];
      }
      return this.forget(agent);
    }
    this.misses++;
    return this.misses >= this.config.missesToLose ? this.forget(agent) : [];
  }

  private sawAgent(found: Identification): ProbeEvent[] {
    this.misses = 0;
    const same = this.current?.agent === found.agent && this.current.pid === found.pid && !this.exitReported;
    this.exitReported = false;
    this.acquisitionStart = undefined;
    if (same) return [];
    this.current = found;
    return [{ kind: 'found', agent: found.agent, pid: found.pid }];
  }

  private forget(agent: string): ProbeEvent[] {
    this.current = undefined;
    this.exitReported = false;
    this.misses = 0;
    return [{ kind: 'lost', agent }];
  }
}
