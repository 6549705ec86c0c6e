import { performance } from 'node:perf_hooks';
import type { Connection } from '../src/client';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, formatRatio, median } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';

const WORKSPACE = 'panes';
const COLS = 80;
const ROWS = 24;
/** Each pane runs `cat`: a program that costs nothing, so what grows is the multiplexer's own cost. */
const PROGRAM = ['cat'];
/** Panes opened (and closed again) at each level to time one open and one close. */
const SAMPLES = 20;

/** One side's figures at one pane count: the median time of one open and of one close, in ms. */
interface Level {
  open: number;
  close: number;
}

interface Side {
  name: 'fux' | 'tmux';
  /** The panes open before the bench opens any (tmux's session has its first window). */
  startPanes: number;
  /** Open one more pane; returns its handle. */
  open(): Promise<string>;
  close(handle: string): Promise<void>;
  stop(): Promise<void>;
}

async function fuxSide(): Promise<Side> {
  const server = await FuxServer.start();
  const conn: Connection = await server.connect();
  // An empty workspace: its panes are all the bench's own.
  await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
  return {
    name: 'fux',
    startPanes: 0,
    async open() {
      const pane = await conn.client.tab.new.mutate({
        workspace: WORKSPACE,
        argv: PROGRAM,
        cwd: server.home,
      });
      return String(pane.id);
    },
    async close(handle) {
      await conn.client.kill.mutate({ workspace: WORKSPACE, id: Number(handle) });
    },
    async stop() {
      conn.close();
      await server.stop();
    },
  };
}

async function tmuxSide(): Promise<Side> {
  const tmux = await TmuxServer.start({ historyLimit: 2000, cols: COLS, rows: ROWS });
  const control = await tmux.control();
  await tmux.newSession(WORKSPACE, PROGRAM, COLS, ROWS);
  return {
    name: 'tmux',
    startPanes: 1,
    // Over the control client, as fux's typed client holds one connection: no tmux client start per pane.
    async open() {
      const [id] = await control.command(
        `new-window -d -t ${WORKSPACE}: -P -F '#{pane_id}' ${PROGRAM.join(' ')}`,
      );
      return id!;
    },
    async close(handle) {
      await control.command(`kill-pane -t ${handle}`);
    },
    async stop() {
      await control.close();
      await tmux.stop();
    },
  };
}

async function timed<T>(step: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await step();
  return [result, performance.now() - start];
}

/** SAMPLES times, open one more pane beside those open and close it again. */
async function measure(side: Side): Promise<Level> {
  const opens: number[] = [];
  const closes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const [handle, openMs] = await timed(() => side.open());
    const [, closeMs] = await timed(() => side.close(handle));
    opens.push(openMs);
    closes.push(closeMs);
  }
  return { open: median(opens), close: median(closes) };
}

/**
 * Issue 32: fux's `tab.new` took 18 ms at 250 panes and 372 ms at 2750. Each side opens `cat` panes
 * (one a tab, in one workspace or session) up to each level, then times SAMPLES opens and closes of
 * one more pane there. What must hold: the cost of one pane does not grow with the panes open, or
 * grows no more than tmux's does.
 */
async function run(options: BenchOptions): Promise<Section> {
  const levels = options.quick ? [50, 250] : [250, 1000, 2750];
  const results = new Map<string, Level>();
  for (const make of [fuxSide, tmuxSide]) {
    const side = await make();
    try {
      let panes = side.startPanes;
      for (const count of levels) {
        for (; panes < count; panes++) await side.open();
        const level = await measure(side);
        results.set(`${side.name} ${count}`, level);
        options.log(
          `B11 ${count} panes, ${side.name}: open ${formatMs(level.open)}, close ${formatMs(level.close)}`,
        );
      }
    } finally {
      await side.stop();
    }
  }
  const at = (name: string, count: number): Level => results.get(`${name} ${count}`)!;
  const first = levels[0]!;
  const most = levels[levels.length - 1]!;
  const growth = (name: string, what: keyof Level): number => at(name, most)[what] / at(name, first)[what];
  const rows = levels.map((count) => [
    String(count),
    formatMs(at('fux', count).open),
    formatMs(at('tmux', count).open),
    formatRatio(at('fux', count).open / at('tmux', count).open),
    formatMs(at('fux', count).close),
    formatMs(at('tmux', count).close),
    formatRatio(at('fux', count).close / at('tmux', count).close),
  ]);
  // "Flat": from the fewest panes to the most, one pane's cost grows no more than tmux's, or 1.5×.
  const allowed = (what: keyof Level): number => Math.max(1.5, growth('tmux', what));
  return {
    id: 'B11',
    title: 'per-pane cost against the pane count',
    method: [
      `one workspace (tmux: one session) of ${COLS}×${ROWS}, a tab (window) per pane, each running \`${PROGRAM.join(' ')}\`; opened one by one up to ${levels.join(', ')} panes`,
      `at each level: ${SAMPLES} times, open one more pane and close it; medians. fux: \`tab.new\` and \`kill\` over one typed-client connection; tmux: \`new-window -d\` and \`kill-pane\` over one control-mode client`,
    ],
    tables: [
      {
        head: ['panes', 'fux open', 'tmux open', 'ratio', 'fux close', 'tmux close', 'ratio'],
        rows,
      },
    ],
    verdicts: (['open', 'close'] as const).map((what) => ({
      target: `one pane's ${what} at ${most} panes ≤ max(1.5, tmux's growth) × at ${first}`,
      measured: `fux ${formatRatio(growth('fux', what))}, tmux ${formatRatio(growth('tmux', what))}`,
      met: growth('fux', what) <= allowed(what),
    })),
  };
}

export const paneCount: Benchmark = { id: 'B11', title: 'per-pane cost against the pane count', run };
