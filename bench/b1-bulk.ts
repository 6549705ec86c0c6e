import { performance } from 'node:perf_hooks';
import type { Connection } from '../src/client';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section, Table } from './lib/report';
import { cpuMs } from './lib/cpu-time';
import { profileFuxServer } from './lib/server-profile';
import { timeWrites } from './lib/xterm-cost';
import { formatMs, formatRatio, median } from './lib/stats';
import type { TmuxControl } from './lib/tmux-control';
import { TmuxServer } from './lib/tmux-server';
import { until } from './lib/wait';

const COLS = 200;
const ROWS = 50;
/** Both keep 10 000 lines of history: fux's default, set on tmux (whose default is 2000). */
const HISTORY = 10_000;
const WORKSPACE = 'b1';
/** How often tmux's pane title is polled over the control connection. */
const TITLE_POLL_MS = 5;

/**
 * The pane waits for Enter (so spawning is not timed), floods, then sets its title to a marker:
 * both terminals parse output in order, so seeing the marker means every line before it is parsed.
 * It then waits again, so the pane (and its title) is still there when the marker is seen.
 */
const floodScript = (lines: number): string =>
  `read _; seq 1 ${lines}; printf '\\033]2;%s\\007' "$1"; read _`;

/** Bytes `seq 1 n` writes: every number's digits plus a newline. */
function seqBytes(n: number): number {
  let bytes = 0;
  for (let digits = 1, from = 1; from <= n; digits++, from *= 10)
    bytes += (Math.min(n, from * 10 - 1) - from + 1) * (digits + 1);
  return bytes;
}

/** What the pane's terminal receives from `seq 1 n`: the tty turns each newline into CR LF. */
function seqOutput(n: number): Buffer {
  const parts: string[] = [];
  for (let i = 1; i <= n; i++) parts.push(`${i}\r\n`);
  return Buffer.from(parts.join(''));
}

/**
 * xterm's floor: the same bytes parsed in this process by a pane-like Terminal, in the pane's
 * 64 KiB writes and in 1 MiB writes (each write pays xterm's own setTimeout before it is parsed).
 */
async function parseFloor(lines: number): Promise<Table> {
  const data = seqOutput(lines);
  const shape = { cols: COLS, rows: ROWS, scrollback: HISTORY };
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const rows: string[][] = [];
  for (const kib of [64, 1024])
    rows.push([`${kib} KiB writes`, formatMs(sum(await timeWrites(shape, data, kib * 1024)))]);
  return {
    title: 'the parse floor: the same output fed to @xterm/headless in the bench process, no pty or server',
    head: ['writes', 'time'],
    rows,
  };
}

interface Side {
  /** Time from sending Enter to seeing the marker title, in ms. */
  flood(marker: string): Promise<number>;
}

/**
 * A side's flood timed, with the CPU time its server used meanwhile: on a loaded machine the
 * wall time also counts the time the server or `seq` waited for a core, the CPU time does not.
 */
async function timed(side: Side, serverPid: number, marker: string): Promise<{ ms: number; cpu: number }> {
  const before = cpuMs(serverPid);
  const ms = await side.flood(marker);
  return { ms, cpu: cpuMs(serverPid) - before };
}

async function fuxSide(conn: Connection, events: FuxEventStream, lines: number, cwd: string): Promise<Side> {
  await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
  // An idle first pane keeps the workspace (and its size) between runs; each run gets a tab.
  await conn.client.new.mutate({ workspace: WORKSPACE, argv: ['cat'], cwd });
  return {
    async flood(marker) {
      const argv = ['sh', '-c', floodScript(lines), 'sh', marker];
      const { id } = await conn.client.tab.new.mutate({ workspace: WORKSPACE, argv, cwd });
      const titled = events.next(
        (e) => e.type === 'pane.title' && e.id === id && e.title === marker,
        300_000,
        `the marker title of fux pane ${id}`,
      );
      const start = performance.now();
      await conn.client.sendKeys.mutate({ workspace: WORKSPACE, id, keys: ['Enter'] });
      const { at } = await titled;
      const closed = events.next(
        (e) => e.type === 'pane.closed' && e.id === id,
        15_000,
        `fux pane ${id} to close`,
      );
      await conn.client.kill.mutate({ workspace: WORKSPACE, id });
      await closed;
      return at - start;
    },
  };
}

async function tmuxSide(tmux: TmuxServer, control: TmuxControl, lines: number): Promise<Side> {
  await tmux.newSession(WORKSPACE, ['cat'], COLS, ROWS);
  return {
    async flood(marker) {
      const pane = await tmux.newWindow(WORKSPACE, ['sh', '-c', floodScript(lines), 'sh', marker]);
      const start = performance.now();
      await control.command(`send-keys -t ${pane} Enter`);
      // tmux 3.3a has no hook on a title change and %subscription-changed is checked once a
      // second, so the title is polled on the control connection (≤ 5 ms late on a figure of seconds).
      const seen = await until(
        async () => {
          const [title] = await control.command(`display-message -p -t ${pane} '#{pane_title}'`);
          return title === marker ? performance.now() : undefined;
        },
        `the marker title of tmux pane ${pane}`,
        300_000,
        TITLE_POLL_MS,
      );
      await control.command(`kill-pane -t ${pane}`);
      return seen - start;
    },
  };
}

/** One extra fux run under `--cpu-prof`: where the server's time goes while it parses the flood. */
function profileFux(lines: number, log: BenchOptions['log']): Promise<Table[]> {
  return profileFuxServer('one run', async (server) => {
    const conn = await server.connect();
    const events = await FuxEventStream.open(conn, ['pane.title', 'pane.closed'], WORKSPACE);
    const side = await fuxSide(conn, events, lines, server.home);
    log(`B1 profiled fux run: ${formatMs(await side.flood('b1-profiled'))}`);
    events.close();
    conn.close();
  });
}

async function run(options: BenchOptions): Promise<Section> {
  const lines = options.quick ? 300_000 : 3_000_000;
  // Five a side: on this machine one side's runs vary by up to a third within the hour, and a
  // median of three moved the ratio across 1.0 between back-to-back invocations (0.88–1.03×).
  const runs = 5;
  const fux = await FuxServer.start();
  const tmux = await TmuxServer.start({ historyLimit: HISTORY, cols: COLS, rows: ROWS });
  const fuxMs: number[] = [];
  const tmuxMs: number[] = [];
  const fuxCpu: number[] = [];
  const tmuxCpu: number[] = [];
  let profile: Table[] = [];
  try {
    const conn = await fux.connect();
    const events = await FuxEventStream.open(conn, ['pane.title', 'pane.closed'], WORKSPACE);
    const control = await tmux.control();
    const sides = [
      {
        name: 'fux',
        side: await fuxSide(conn, events, lines, fux.home),
        pid: fux.pid,
        into: fuxMs,
        cpu: fuxCpu,
      },
      { name: 'tmux', side: await tmuxSide(tmux, control, lines), pid: tmux.pid, into: tmuxMs, cpu: tmuxCpu },
    ];
    for (let r = 0; r < runs; r++) {
      // Alternate who goes first, so a slow spell on the machine does not always hit the same one.
      for (const { name, side, pid, into, cpu } of r % 2 ? [...sides].reverse() : sides) {
        const { ms, cpu: used } = await timed(side, pid, `b1-${name}-${r}`);
        into.push(ms);
        cpu.push(used);
        options.log(`B1 run ${r + 1}/${runs} ${name}: ${formatMs(ms)}, server CPU ${formatMs(used)}`);
      }
    }
    events.close();
    conn.close();
    await control.close();
  } finally {
    await tmux.stop();
    await fux.stop();
  }
  if (options.profile) profile = [await parseFloor(lines), ...(await profileFux(lines, options.log))];

  const ratio = median(fuxMs) / median(tmuxMs);
  const mbps = (ms: number): string => `${(seqBytes(lines) / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
  return {
    id: 'B1',
    title: 'bulk output',
    method: [
      `\`seq 1 ${lines.toLocaleString('en-US')}\` (${(seqBytes(lines) / 1e6).toFixed(1)} MB) in a fresh ${COLS}×${ROWS} pane with ${HISTORY.toLocaleString('en-US')} lines of history, then an OSC 2 title marker; timed from sending Enter (the pane waits for it, so spawning is not timed) to seeing the marker`,
      'fux: the `pane.title` event on a typed-client subscription; tmux: `display-message -p "#{pane_title}"` polled every 5 ms on a control-mode client attached to another session (tmux 3.3a has no title hook)',
      `median of ${runs} runs each, fux and tmux alternating; no client attached to either pane`,
      "server CPU time: the server process's user + system time over the same window (/proc), which a loaded machine inflates less than the wall time",
    ],
    tables: [
      {
        head: ['measure', 'fux', 'tmux', 'fux/tmux', 'target'],
        rows: [
          [
            `median of ${runs}`,
            formatMs(median(fuxMs)),
            formatMs(median(tmuxMs)),
            formatRatio(ratio),
            '≤ 1.00×',
          ],
          ['throughput (median)', mbps(median(fuxMs)), mbps(median(tmuxMs)), '', ''],
          [
            'server CPU time (median)',
            formatMs(median(fuxCpu)),
            formatMs(median(tmuxCpu)),
            formatRatio(median(fuxCpu) / median(tmuxCpu)),
            '',
          ],
          ['every run', fuxMs.map(formatMs).join(', '), tmuxMs.map(formatMs).join(', '), '', ''],
        ],
      },
      ...profile,
    ],
    verdicts: [{ target: 'fux/tmux ≤ 1.0', measured: formatRatio(ratio), met: ratio <= 1 }],
  };
}

export const bulkOutput: Benchmark = { id: 'B1', title: 'bulk output', run };
