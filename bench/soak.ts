import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { soak } from './lib/soak';
import { formatMiB, formatRatio } from './lib/stats';

/**
 * Forty busy panes for ten minutes (`--quick`: ten for a minute) on one server, with a subscriber
 * and an attached client: the server's RSS at the end against after the first minute, and
 * whether the subscriber, which keeps up, lost an event. Not run by default (it takes ten minutes).
 */
async function run(options: BenchOptions): Promise<Section> {
  const panes = options.quick ? 10 : 40;
  const durationMs = options.quick ? 60_000 : 600_000;
  const baselineAfterMs = options.quick ? 20_000 : 60_000;
  const server = await FuxServer.start();
  let result;
  try {
    const conn = await server.connect();
    result = await soak(conn.client, server.pid, {
      panes,
      durationMs,
      baselineAfterMs,
      sampleEveryMs: options.quick ? 5_000 : 10_000,
      cols: 200,
      rows: 50,
      cwd: server.home,
      log: options.log,
    });
    conn.close();
  } finally {
    await server.stop();
  }
  const growth = result.endRss / result.baselineRss;
  const peak = Math.max(...result.samples.map((s) => s.rss));
  const minutes = (ms: number): string => `${ms / 60_000} min`;
  return {
    id: 'SOAK',
    title: 'soak',
    method: [
      `${panes} panes of 200×50 in one workspace, each in its own tab: half a bash loop printing a line and a numbered OSC 2 title each second, half a fake agent redrawing a spinner line in place 4 times a second and numbering its title each second`,
      `one subscriber to all of the workspace's events (it keeps up) and one attached client (an \`attach.session\` subscription at 200×50), for ${minutes(durationMs)}`,
      `the server's RSS sampled every ${options.quick ? 5 : 10} s; the baseline is the sample at ${minutes(baselineAfterMs)}; an event counts as lost when a pane's titles 1…n (n read with \`list\` at the end) did not all reach the subscriber, in order`,
    ],
    tables: [
      {
        head: ['measure', 'value', 'target'],
        rows: [
          [`RSS at ${minutes(baselineAfterMs)}`, formatMiB(result.baselineRss), ''],
          ['RSS at the end', formatMiB(result.endRss), ''],
          ['RSS peak', formatMiB(peak), ''],
          ['end / baseline', formatRatio(growth), '≤ 1.10×'],
          ['titles set / received', `${result.titlesSet} / ${result.titlesSeen}`, ''],
          ['panes that lost an event', String(result.lost.length), '0'],
          ['events received, attach frames received', `${result.events}, ${result.frames}`, ''],
        ],
      },
      {
        title: 'RSS samples',
        head: ['s', 'RSS'],
        rows: result.samples.map((s) => [String(Math.round(s.at / 1000)), formatMiB(s.rss)]),
      },
    ],
    verdicts: [
      { target: 'RSS end ≤ 1.1 × after the first minute', measured: formatRatio(growth), met: growth <= 1.1 },
      {
        target: 'no event lost',
        measured: result.lost.length ? result.lost.join('; ') : 'none lost',
        met: result.lost.length === 0,
      },
    ],
  };
}

export const soakBench: Benchmark = { id: 'SOAK', title: 'soak', run };
