/**
 * SCROLLBACK (issue 32): one pane at the documented maximum scrollback (docs/config.md), filled
 * past it with `seq`, fux against tmux with the same history-limit. Measured: the time from Enter
 * (the pane waits for it) to the marker after the last line, the server's CPU over it, its resident
 * set once the history is full, and its resident set once the pane has closed again.
 */
import { performance } from 'node:perf_hooks';
import type { Connection } from '../src/client';
import { MAX_SCROLLBACK } from '../src/server/config';
import { cpuMs } from './lib/cpu-time';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import { settledResident } from './lib/memory';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMiB, formatMs, formatRatio, median } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { until } from './lib/wait';

const COLS = 200;
const ROWS = 50;
const WORKSPACE = 'scrollback';
const MARKER = 'scrollback-filled';
/** How often tmux's pane title is polled while it fills. */
const TITLE_POLL_MS = 20;
const FILL_TIMEOUT_MS = 600_000;
/** A settled reading may take a while after a fill: fux compacts a flooded pane in steps. */
const SETTLE_TIMEOUT_MS = 60_000;

/** Wait for Enter, print `lines` numbers, set the marker title, then idle so the pane stays. */
const fillScript = (lines: number): string =>
  `read _; seq 1 ${lines}; printf '\\033]2;%s\\007' '${MARKER}'; exec cat`;

interface Run {
  /** From Enter to the marker, in ms. */
  ms: number;
  /** The server's CPU time over that, in ms. */
  cpu: number;
  /** Resident set before the pane opened, once the history is full, and once the pane closed. */
  baseline: number;
  filled: number;
  closed: number;
  /** VmHWM once the pane closed: the peak of a fresh server. */
  peak: number;
}

interface Side {
  pid: number;
  /** Open the pane (waiting for Enter); resolves to the function that fills it and times the fill. */
  open(): Promise<() => Promise<number>>;
  close(): Promise<void>;
  stop(): Promise<void>;
}

async function fuxSide(history: number, lines: number): Promise<Side> {
  const server = await FuxServer.start({ config: `scrollback = ${history}\n` });
  const conn: Connection = await server.connect();
  const events = await FuxEventStream.open(conn, ['pane.title', 'pane.closed'], WORKSPACE);
  await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
  let id = 0;
  return {
    pid: server.pid,
    async open() {
      const argv = ['sh', '-c', fillScript(lines)];
      ({ id } = await conn.client.tab.new.mutate({ workspace: WORKSPACE, argv, cwd: server.home }));
      return async () => {
        const marked = events.next(
          (e) => e.type === 'pane.title' && e.id === id && e.title === MARKER,
          FILL_TIMEOUT_MS,
          `the marker of fux pane ${id}`,
        );
        const start = performance.now();
        await conn.client.sendKeys.mutate({ workspace: WORKSPACE, id, keys: ['Enter'] });
        return (await marked).at - start;
      };
    },
    async close() {
      const closed = events.next((e) => e.type === 'pane.closed' && e.id === id, 10_000, 'the pane to close');
      await conn.client.kill.mutate({ workspace: WORKSPACE, id });
      await closed;
    },
    async stop() {
      events.close();
      conn.close();
      await server.stop();
    },
  };
}

async function tmuxSide(history: number, lines: number): Promise<Side> {
  const tmux = await TmuxServer.start({ historyLimit: history, cols: COLS, rows: ROWS });
  let pane = '';
  return {
    pid: tmux.pid,
    async open() {
      pane = await tmux.newSession(WORKSPACE, ['sh', '-c', fillScript(lines)], COLS, ROWS);
      return async () => {
        const start = performance.now();
        await tmux.tmux(['send-keys', '-t', pane, 'Enter']);
        await until(
          async () =>
            (await tmux.tmux(['display-message', '-p', '-t', pane, '#{pane_title}'])).trim() === MARKER
              ? true
              : undefined,
          'the marker of the tmux pane',
          FILL_TIMEOUT_MS,
          TITLE_POLL_MS,
        );
        return performance.now() - start;
      };
    },
    async close() {
      // The server stays up: its `ctl` session holds a `cat`.
      await tmux.tmux(['kill-session', '-t', WORKSPACE]);
    },
    stop: () => tmux.stop(),
  };
}

async function measure(side: Side): Promise<Run> {
  const baseline = (await settledResident(side.pid)).rss;
  const fill = await side.open();
  const cpuBefore = cpuMs(side.pid);
  const ms = await fill();
  const cpu = cpuMs(side.pid) - cpuBefore;
  const filled = (await settledResident(side.pid, SETTLE_TIMEOUT_MS)).rss;
  await side.close();
  const after = await settledResident(side.pid, SETTLE_TIMEOUT_MS);
  return { ms, cpu, baseline, filled, closed: after.rss, peak: after.peak };
}

async function run(options: BenchOptions): Promise<Section> {
  // --quick: a tenth of the maximum, one run a side.
  const history = options.quick ? MAX_SCROLLBACK / 10 : MAX_SCROLLBACK;
  const lines = history + history / 10;
  const runs = options.quick ? 1 : 3;
  const fux: Run[] = [];
  const tmux: Run[] = [];
  for (let r = 0; r < runs; r++) {
    // Fresh servers each run (the peak is a server's whole life), the two sides alternating first.
    const order = r % 2 ? (['tmux', 'fux'] as const) : (['fux', 'tmux'] as const);
    for (const name of order) {
      const side = name === 'fux' ? await fuxSide(history, lines) : await tmuxSide(history, lines);
      try {
        const result = await measure(side);
        (name === 'fux' ? fux : tmux).push(result);
        options.log(
          `SCROLLBACK run ${r + 1}/${runs}, ${name}: ${formatMs(result.ms)}, CPU ${formatMs(result.cpu)}, RSS +${formatMiB(result.filled - result.baseline)}, after the close +${formatMiB(result.closed - result.baseline)}`,
        );
      } finally {
        await side.stop();
      }
    }
  }
  const med = (rs: Run[], f: (r: Run) => number): number => median(rs.map(f));
  const time = (r: Run): number => r.ms;
  const cpu = (r: Run): number => r.cpu;
  const grown = (r: Run): number => r.filled - r.baseline;
  const kept = (r: Run): number => r.closed - r.baseline;
  const peak = (r: Run): number => r.peak - r.baseline;
  const row = (measure: string, f: (r: Run) => number, format: (n: number) => string): string[] => [
    measure,
    format(med(fux, f)),
    format(med(tmux, f)),
    formatRatio(med(fux, f) / med(tmux, f)),
  ];
  const timeRatio = med(fux, time) / med(tmux, time);
  const memoryRatio = med(fux, grown) / med(tmux, grown);
  return {
    id: 'SCROLLBACK',
    title: 'the largest scrollback',
    method: [
      `one pane of ${COLS}×${ROWS} with ${history.toLocaleString('en-US')} lines of history (fux: \`scrollback\` in config.toml, the documented maximum; tmux: \`history-limit\`) printing \`seq 1 ${lines.toLocaleString('en-US')}\` (the history full and overrun), then an OSC 2 title marker, then idling in \`cat\`; timed from Enter (the pane waits for it) to the marker (fux: its \`pane.title\` event; tmux: \`display-message\` every ${TITLE_POLL_MS} ms)`,
      `RSS: the server's VmRSS before the pane opened, once filled and once the pane has closed (each settled: < 1 % change and < 5 % of a core over 1 s); growth is against the first; peak is VmHWM`,
      `a fresh server per run and side, ${runs} run(s), fux and tmux alternating; medians`,
    ],
    tables: [
      {
        head: ['measure', 'fux', 'tmux', 'fux/tmux'],
        rows: [
          row('fill time', time, formatMs),
          row('server CPU over the fill', cpu, formatMs),
          row('RSS growth, history full', grown, formatMiB),
          row('peak RSS growth (VmHWM)', peak, formatMiB),
          row('RSS growth left after the close', kept, formatMiB),
          row('RSS before the pane', (r) => r.baseline, formatMiB),
        ],
      },
    ],
    verdicts: [
      { target: 'fill time fux/tmux ≤ 1.0', measured: formatRatio(timeRatio), met: timeRatio <= 1 },
      { target: 'RSS growth fux/tmux ≤ 1.0', measured: formatRatio(memoryRatio), met: memoryRatio <= 1 },
    ],
  };
}

export const scrollbackBench: Benchmark = { id: 'SCROLLBACK', title: 'the largest scrollback', run };
