import type { Connection } from '../src/client';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import { settledResident } from './lib/memory';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMiB, formatRatio, median } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { until } from './lib/wait';
import { measureTerminal } from './lib/xterm-cost';

const COLS = 200;
const ROWS = 50;
const HISTORY = 10_000;
const WIDTH = 190;
/** Enough to fill the history and the screen, with some to spare: every line of history is used. */
const LINES = HISTORY + ROWS + 50;
const WORKSPACE = 'mem';

/** Fill the pane, mark "all parsed" with a title, then idle (the pane must stay, with its history). */
const fillScript = `seq -f '%0${WIDTH}.0f' 1 ${LINES}; printf '\\033]2;%s\\007' "$1"; exec cat`;

interface Reading {
  baseline: number;
  rss: number;
  peak: number;
}

async function fuxReading(panes: number): Promise<Reading> {
  const server = await FuxServer.start();
  let conn: Connection | undefined;
  try {
    conn = await server.connect();
    const events = await FuxEventStream.open(conn, ['pane.title'], WORKSPACE);
    await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
    const baseline = server.resident().rss;
    const filled: Promise<unknown>[] = [];
    for (let i = 0; i < panes; i++) {
      const marker = `filled-${i}`;
      filled.push(
        events.next((e) => e.type === 'pane.title' && e.title === marker, 300_000, `fux pane ${i} to fill`),
      );
      await conn.client.tab.new.mutate({
        workspace: WORKSPACE,
        argv: ['sh', '-c', fillScript, 'sh', marker],
        cwd: server.home,
      });
    }
    await Promise.all(filled);
    const { rss, peak } = await settledResident(server.pid);
    events.close();
    return { baseline, rss, peak };
  } finally {
    conn?.close();
    await server.stop();
  }
}

async function tmuxReading(panes: number): Promise<{ reading: Reading; history: number }> {
  const tmux = await TmuxServer.start({ historyLimit: HISTORY, cols: COLS, rows: ROWS });
  try {
    const baseline = tmux.resident().rss;
    const argv = (i: number): string[] => ['sh', '-c', fillScript, 'sh', `filled-${i}`];
    await tmux.newSession(WORKSPACE, argv(0), COLS, ROWS);
    for (let i = 1; i < panes; i++) await tmux.newWindow(WORKSPACE, argv(i));
    const format = ['list-panes', '-s', '-t', WORKSPACE, '-F', '#{pane_title} #{history_size}'];
    const history = await until(
      async () => {
        const rows = (await tmux.tmux(format)).trim().split('\n');
        const done = rows.filter((r) => r.startsWith('filled-'));
        return done.length === panes ? Math.min(...done.map((r) => Number(r.split(' ')[1]))) : undefined;
      },
      'every tmux pane to fill',
      300_000,
      100,
    );
    const { rss, peak } = await settledResident(tmux.pid);
    return { reading: { baseline, rss, peak }, history };
  } finally {
    await tmux.stop();
  }
}

async function run(options: BenchOptions): Promise<Section> {
  const panes = options.quick ? 8 : 40;
  const runs = options.quick ? 1 : 3;
  const fux: Reading[] = [];
  const tmux: Reading[] = [];
  let tmuxHistory = 0;
  for (let r = 0; r < runs; r++) {
    fux.push(await fuxReading(panes));
    const t = await tmuxReading(panes);
    tmux.push(t.reading);
    tmuxHistory = t.history;
    options.log(`B5 run ${r + 1}/${runs}: fux ${formatMiB(fux[r]!.rss)}, tmux ${formatMiB(tmux[r]!.rss)}`);
  }
  const cost = await measureTerminal({ cols: COLS, rows: ROWS, scrollback: HISTORY }, LINES, WIDTH);
  const med = (rs: Reading[], k: keyof Reading): number => median(rs.map((x) => x[k]));
  const perPane = (rs: Reading[]): number => median(rs.map((x) => (x.rss - x.baseline) / panes));
  const cells = COLS * (HISTORY + ROWS);
  const ratio = med(fux, 'rss') / med(tmux, 'rss');
  return {
    id: 'B5',
    title: 'memory',
    method: [
      `${panes} panes of ${COLS}×${ROWS}, each printing ${LINES.toLocaleString('en-US')} lines of ${WIDTH} characters (\`seq -f '%0${WIDTH}.0f'\`) so that ${HISTORY.toLocaleString('en-US')} lines of history are full, then a title marker, then idling in \`cat\``,
      `fux: its default scrollback (10 000 lines), one workspace, a tab per pane; tmux: \`history-limit ${HISTORY}\`, a window per pane (every tmux pane held ≥ ${tmuxHistory.toLocaleString('en-US')} lines of history: at the limit tmux drops the oldest 10 % at once)`,
      `VmRSS of the server process alone (not the panes' programs) once it has settled (< 1 % change over 1 s) after every marker is seen; median of ${runs} fresh server(s) each`,
    ],
    tables: [
      {
        head: ['measure', 'fux', 'tmux', 'fux/tmux', 'target'],
        rows: [
          [
            `server RSS, ${panes} panes`,
            formatMiB(med(fux, 'rss')),
            formatMiB(med(tmux, 'rss')),
            formatRatio(ratio),
            '≤ 1.00×',
          ],
          [
            'server RSS before any pane',
            formatMiB(med(fux, 'baseline')),
            formatMiB(med(tmux, 'baseline')),
            '',
            '',
          ],
          ['peak RSS (VmHWM)', formatMiB(med(fux, 'peak')), formatMiB(med(tmux, 'peak')), '', ''],
          [
            'per pane (RSS − baseline) / panes',
            formatMiB(perPane(fux)),
            formatMiB(perPane(tmux)),
            formatRatio(perPane(fux) / perPane(tmux)),
            '',
          ],
          [
            `per cell of history and screen (${COLS} × ${(HISTORY + ROWS).toLocaleString('en-US')})`,
            `${(perPane(fux) / cells).toFixed(1)} B`,
            `${(perPane(tmux) / cells).toFixed(1)} B`,
            '',
            '',
          ],
        ],
      },
      {
        title: `for comparison, xterm alone: one @xterm/headless Terminal keeping all ${HISTORY.toLocaleString('en-US')} lines of history itself, fed the same ${LINES.toLocaleString('en-US')} lines in the bench process`,
        head: ['measure', 'growth', 'per cell'],
        rows: [
          [
            'typed arrays (the cell buffers)',
            formatMiB(cost.arrayBuffers),
            `${(cost.arrayBuffers / cells).toFixed(1)} B`,
          ],
          ['JS heap (the line objects)', formatMiB(cost.heapUsed), `${(cost.heapUsed / cells).toFixed(1)} B`],
        ],
      },
    ],
    verdicts: [{ target: 'fux/tmux ≤ 1.0', measured: formatRatio(ratio), met: ratio <= 1 }],
  };
}

export const memory: Benchmark = { id: 'B5', title: 'memory', run };
