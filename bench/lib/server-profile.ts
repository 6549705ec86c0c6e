import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monotonicUs, readProfiles, selfTime, top, type Window } from './cpu-profile';
import { FuxServer } from './fux-server';
import type { Table } from './report';
import { formatMs } from './stats';

/**
 * Run `measure` against a fux server started under `node --cpu-prof`, and say where the server's
 * CPU time went while `measure` ran (startup and shutdown are cut off by the time window).
 */
export async function profileFuxServer(
  what: string,
  measure: (server: FuxServer) => Promise<void>,
): Promise<Table[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-prof-'));
  try {
    const server = await FuxServer.start({ cpuProfileDir: dir });
    const window: Window = { fromUs: 0, toUs: 0 };
    try {
      window.fromUs = monotonicUs();
      await measure(server);
      window.toUs = monotonicUs();
    } finally {
      await server.stop(); // the profile is written as the server exits
    }
    const { byOrigin, byFunction } = selfTime(readProfiles(dir), window);
    const total = [...byOrigin.values()].reduce((a, b) => a + b, 0);
    const rows = (m: Map<string, number>, n: number): string[][] =>
      top(m, n).map(([k, v]) => [k, formatMs(v), `${((100 * v) / total).toFixed(1)} %`]);
    return [
      {
        title: `fux server CPU profile, ${what}: self time by package`,
        head: ['where', 'self time', 'share'],
        rows: rows(byOrigin, 8),
      },
      {
        title: `fux server CPU profile, ${what}: self time by function`,
        head: ['function', 'self time', 'share'],
        rows: rows(byFunction, 12),
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
