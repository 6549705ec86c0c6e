import { runMs } from './cpu-time';
import { formatRatio } from './stats';

/**
 * The CPU a keystroke costs the processes on its path. On this project's 2-vCPU machines a
 * wake-up puts the woken process on the waker's vCPU, so the processes of an echo's path mostly run
 * in turn, and the echo follows the sum of what they spend (docs/benchmarks.md, 2026-12-03 15:02).
 */

/** The processes a side's keystroke runs through besides this one: its server, and any client. */
export interface ProcessesOnPath {
  server: number | undefined;
  clients: (number | undefined)[];
}

export interface CpuReading {
  /** The server's threads' time on a CPU, ms. */
  server: number;
  /** This process's CPU and the client processes' threads', ms. */
  client: number;
}

function cpuOnPath({ server, clients }: ProcessesOnPath): CpuReading {
  const own = process.cpuUsage();
  let client = (own.user + own.system) / 1000;
  for (const pid of clients) if (pid !== undefined) client += runMs(pid);
  return { server: server === undefined ? Number.NaN : runMs(server), client };
}

/** A side's CPU over its rounds, and the keystrokes it was spent on. */
export class KeystrokeCpu {
  private server = 0;
  private client = 0;
  private keystrokes = 0;

  /** Time `keystrokes` keystrokes typed by `type` on `processes`. */
  async over<T>(processes: ProcessesOnPath, keystrokes: number, type: () => Promise<T>): Promise<T> {
    const before = cpuOnPath(processes);
    const result = await type();
    const after = cpuOnPath(processes);
    this.server += after.server - before.server;
    this.client += after.client - before.client;
    this.keystrokes += keystrokes;
    return result;
  }

  /** Mean CPU per keystroke, in ms. */
  perKeystroke(): CpuReading {
    return { server: this.server / this.keystrokes, client: this.client / this.keystrokes };
  }
}

/** A table row: `name`, its server's and client side's CPU per keystroke, their sum, and that over `reference`'s. */
export function keystrokeCpuRow(name: string, side: KeystrokeCpu, reference: KeystrokeCpu): string[] {
  const { server, client } = side.perKeystroke();
  const ref = reference.perKeystroke();
  const total = server + client;
  return [name, us(server), us(client), us(total), formatRatio(total / (ref.server + ref.client))];
}

function us(ms: number): string {
  return `${Math.round(ms * 1000)} µs`;
}
