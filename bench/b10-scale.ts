import { performance } from 'node:perf_hooks';
import type { Connection } from '../src/client';
import {
  ECHO_COLS,
  ECHO_ROWS,
  fuxEchoTarget,
  PANE_GAP_MS,
  tmuxEchoTarget,
  type EchoTarget,
} from './lib/echo';
import { cpuMs } from './lib/cpu-time';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import { settledResident } from './lib/memory';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMiB, formatMs, formatRatio, median, percentile } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { sleep, until } from './lib/wait';

const COLS = 200;
const ROWS = 50;
const HISTORY = 10_000;
const WORKSPACE = 'scale';
/** How often tmux's pane titles are polled (one `list-panes` for all of them). */
const TITLE_POLL_MS = 20;
const FLOOD_TIMEOUT_MS = 600_000;

/**
 * Each pane waits for Enter, floods with `yes` of a 99-character line (100 bytes a line, so the
 * flood is about printing and scrolling, not only scrolling as 2-byte `y` lines would be), cut at
 * `bytes`, then sets its title to a marker and waits again so the title stays to be seen.
 */
const floodScript = (bytes: number): string =>
  `read _; yes "$(printf '%099d' 0)" | head -c ${bytes}; printf '\\033]2;%s\\007' "$1"; read _`;

interface Level {
  /** Wall time from the first Enter until every pane's marker was seen, in ms. */
  ms: number;
  /** The server's resident set once the flood is parsed, in bytes. */
  rss: number;
  /** Echo latencies in the extra pane while the panes flooded, in ms. */
  echo: number[];
  /** CPU time the server used over the flood, in ms. */
  cpu: number;
}

interface Side {
  name: 'fux' | 'tmux';
  pid: number;
  /** Open `panes` panes waiting to flood; returns a function that starts them and resolves when all are done. */
  prepare(panes: number, run: number): Promise<() => Promise<number>>;
  echo: EchoTarget;
  rss(): Promise<number>;
  stop(): Promise<void>;
}

async function fuxSide(bytes: number): Promise<Side> {
  const server = await FuxServer.start();
  const conn: Connection = await server.connect();
  const events = await FuxEventStream.open(conn, ['pane.output', 'pane.title']);
  await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
  const echo = await fuxEchoTarget(conn, events, 1, server.home);
  return {
    name: 'fux',
    pid: server.pid,
    echo,
    async prepare(panes, run) {
      const ids: number[] = [];
      const argv = (i: number): string[] => ['sh', '-c', floodScript(bytes), 'sh', `b10-${run}-${i}`];
      for (let i = 0; i < panes; i++) {
        ids.push(
          (await conn.client.tab.new.mutate({ workspace: WORKSPACE, argv: argv(i), cwd: server.home })).id,
        );
      }
      return async () => {
        const titled = ids.map((id, i) =>
          events.next(
            (e) => e.type === 'pane.title' && e.id === id && e.title === `b10-${run}-${i}`,
            FLOOD_TIMEOUT_MS,
            `the marker of fux pane ${id}`,
          ),
        );
        const start = performance.now();
        await Promise.all(
          ids.map((id) => conn.client.sendKeys.mutate({ workspace: WORKSPACE, id, keys: ['Enter'] })),
        );
        const arrivals = await Promise.all(titled);
        const ms = Math.max(...arrivals.map((a) => a.at)) - start;
        for (const id of ids) await conn.client.kill.mutate({ workspace: WORKSPACE, id });
        return ms;
      };
    },
    async rss() {
      return (await settledResident(server.pid, 20_000)).rss;
    },
    async stop() {
      events.close();
      conn.close();
      await server.stop();
    },
  };
}

async function tmuxSide(bytes: number): Promise<Side> {
  const tmux = await TmuxServer.start({ historyLimit: HISTORY, cols: COLS, rows: ROWS });
  const control = await tmux.control();
  await tmux.newSession(WORKSPACE, ['cat'], COLS, ROWS);
  const { target: echo, control: echoControl } = await tmuxEchoTarget(tmux, 1);
  return {
    name: 'tmux',
    pid: tmux.pid,
    echo,
    async prepare(panes, run) {
      const ids: string[] = [];
      for (let i = 0; i < panes; i++) {
        ids.push(await tmux.newWindow(WORKSPACE, ['sh', '-c', floodScript(bytes), 'sh', `b10-${run}-${i}`]));
      }
      return async () => {
        const start = performance.now();
        await control.command(ids.map((id) => `send-keys -t ${id} Enter`).join(' ; '));
        const done = new Set<string>();
        await until(
          async () => {
            const lines = await control.command(
              `list-panes -s -t ${WORKSPACE} -F '#{pane_id} #{pane_title}'`,
            );
            for (const line of lines) {
              const [id, title] = line.split(' ');
              if (id && title === `b10-${run}-${ids.indexOf(id)}`) done.add(id);
            }
            return done.size === ids.length ? true : undefined;
          },
          `the markers of ${panes} tmux panes`,
          FLOOD_TIMEOUT_MS,
          TITLE_POLL_MS,
        );
        const ms = performance.now() - start;
        await control.command(ids.map((id) => `kill-pane -t ${id}`).join(' ; '));
        return ms;
      };
    },
    async rss() {
      return (await settledResident(tmux.pid, 20_000)).rss;
    },
    async stop() {
      await echoControl.close();
      await control.close();
      await tmux.stop();
    },
  };
}

/** Keystrokes in the extra pane, each PANE_GAP_MS after the last echo, until `done` settles. */
async function echoUntil(target: EchoTarget, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const latencies: number[] = [];
  while (!finished) {
    latencies.push(await target.keystroke(0));
    await sleep(PANE_GAP_MS);
  }
  return latencies;
}

async function measureLevel(side: Side, panes: number, run: number): Promise<Level> {
  const start = await side.prepare(panes, run);
  await side.echo.keystroke(0); // warm-up, not counted
  // As between any two keys (B2): a key within 250 ms of the last nudge has its own nudge held back
  // by the throttle, which made the first counted key of each level read ~250 ms.
  await sleep(PANE_GAP_MS);
  const cpuBefore = cpuMs(side.pid);
  const flood = start();
  const echo = await echoUntil(side.echo, flood);
  const ms = await flood;
  const cpu = cpuMs(side.pid) - cpuBefore;
  return { ms, rss: await side.rss(), echo, cpu };
}

/**
 * 5 MiB a pane rather than the 20 MiB: 40 panes of 20 MiB are 800 MiB for each side and
 * run, minutes each on this 2-core machine; 5 MiB keeps a full run of B10 to some minutes.
 */
async function run(options: BenchOptions): Promise<Section> {
  const bytes = (options.quick ? 1 : 5) * 1024 * 1024;
  const levels = [1, 10, 40];
  const runs = options.quick ? 1 : 2;
  const results = new Map<string, Level[]>();
  for (const panes of levels) {
    // Fresh servers for each level, so that the RSS is that of `panes` flooded panes.
    const sides = [await fuxSide(bytes), await tmuxSide(bytes)];
    try {
      for (let r = 0; r < runs; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) {
          const level = await measureLevel(side, panes, r);
          const key = `${side.name} ${panes}`;
          results.set(key, [...(results.get(key) ?? []), level]);
          options.log(
            `B10 ${panes} panes, run ${r + 1}/${runs}, ${side.name}: ${formatMs(level.ms)}, CPU ${formatMs(level.cpu)}, RSS ${formatMiB(level.rss)}, echo p99 ${formatMs(percentile(level.echo, 99))} (${level.echo.length} keys)`,
          );
        }
      }
    } finally {
      for (const side of sides) await side.stop();
    }
  }

  const of = (name: string, panes: number): Level[] => results.get(`${name} ${panes}`)!;
  const time = (name: string, panes: number): number => median(of(name, panes).map((l) => l.ms));
  const rss = (name: string, panes: number): number => Math.max(...of(name, panes).map((l) => l.rss));
  const echo = (name: string, panes: number): number[] => of(name, panes).flatMap((l) => l.echo);
  const ratio = (panes: number): number => time('fux', panes) / time('tmux', panes);
  const cpu = (name: string, panes: number): number => median(of(name, panes).map((l) => l.cpu));
  const rows = levels.map((panes) => [
    String(panes),
    formatMs(time('fux', panes)),
    formatMs(time('tmux', panes)),
    formatRatio(ratio(panes)),
    formatRatio(cpu('fux', panes) / cpu('tmux', panes)),
    formatMiB(rss('fux', panes)),
    formatMiB(rss('tmux', panes)),
    formatRatio(rss('fux', panes) / rss('tmux', panes)),
    `${formatMs(percentile(echo('fux', panes), 99))} (${echo('fux', panes).length})`,
    `${formatMs(percentile(echo('tmux', panes), 99))} (${echo('tmux', panes).length})`,
  ]);
  const most = levels[levels.length - 1]!;
  const growth = ratio(most) / ratio(levels[0]!);
  const worstRss = Math.max(...levels.map((p) => rss('fux', p) / rss('tmux', p)));
  const worstEcho = Math.max(...levels.map((p) => percentile(echo('fux', p), 99)));
  const mib = (bytes / 2 ** 20).toFixed(0);
  return {
    id: 'B10',
    title: 'scale',
    method: [
      `${levels.join(', ')} panes of ${COLS}×${ROWS} (10 000 lines of history on both sides), each running \`yes\` of a 99-character line cut at ${mib} MiB (\`head -c\`), then an OSC 2 title marker; timed from sending Enter to every pane (they wait for it) until every marker has been seen`,
      `CPU: the server process's user + system time over the flood (/proc), medians; fux: \`pane.title\` events; tmux: one \`list-panes\` every ${TITLE_POLL_MS} ms on a control client in another session`,
      `RSS: the server's resident set once the flood is parsed (settled); echo: B2's keystroke in one more \`cat\` pane (${ECHO_COLS}×${ECHO_ROWS}, its own workspace or session), one every ${PANE_GAP_MS} ms while the panes flood (count in brackets)`,
      `fresh servers for each level; ${runs} run(s) per level and side, fux and tmux alternating; times are medians, RSS the largest`,
    ],
    tables: [
      {
        head: [
          'panes',
          'fux',
          'tmux',
          'fux/tmux',
          'CPU fux/tmux',
          'fux RSS',
          'tmux RSS',
          'RSS ratio',
          'fux echo p99',
          'tmux echo p99',
        ],
        rows,
      },
    ],
    verdicts: [
      {
        target: `fux/tmux at ${most} panes ≤ at 1`,
        measured: `${formatRatio(ratio(most))} against ${formatRatio(ratio(levels[0]!))}`,
        met: growth <= 1,
      },
      { target: 'RSS ≤ tmux', measured: `${formatRatio(worstRss)} at worst`, met: worstRss <= 1 },
      { target: 'echo p99 ≤ 20 ms', measured: `${formatMs(worstEcho)} at worst`, met: worstEcho <= 20 },
    ],
  };
}

export const scale: Benchmark = { id: 'B10', title: 'scale', run };
