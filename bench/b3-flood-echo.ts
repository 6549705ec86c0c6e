import type { Connection } from '../src/client';
import {
  ECHO_COLS,
  ECHO_ROWS,
  fuxEchoTarget,
  measureEcho,
  PANE_GAP_MS,
  tmuxEchoTarget,
  type EchoTarget,
} from './lib/echo';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section, Table } from './lib/report';
import { profileFuxServer } from './lib/server-profile';
import { formatMs, formatRatio, percentile } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { until } from './lib/wait';
import { timeWrites } from './lib/xterm-cost';

const PANES = 10;
/** The flood: `yes` costs its own CPU least, so the most is left for the servers on 2 cores. */
const FLOOD = ['yes'];
const FLOOD_WORKSPACE = 'flood';

/** Starts pane A's flood and stops it; only the side being measured floods, so they never compete. */
interface Flood {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * fux: A is in its own workspace, as tmux's is in its own session (there to keep the flood off the
 * control connection); here that only spares the echo subscription A's 4 nudges a second.
 */
function fuxFlood(conn: Connection, events: FuxEventStream, cwd: string): Flood {
  let id = 0;
  return {
    async start() {
      await conn.client.workspace.new.mutate({ name: FLOOD_WORKSPACE, cols: ECHO_COLS, rows: ECHO_ROWS });
      const flowing = events.next(
        (e) => e.type === 'pane.output' && e.workspace === FLOOD_WORKSPACE,
        10_000,
        'the flood to reach fux',
      );
      id = (await conn.client.new.mutate({ workspace: FLOOD_WORKSPACE, argv: FLOOD, cwd })).id;
      await flowing;
    },
    async stop() {
      const closed = events.next(
        (e) => e.type === 'pane.closed' && e.workspace === FLOOD_WORKSPACE && e.id === id,
        30_000,
        'the fux flood pane to close',
      );
      await conn.client.kill.mutate({ workspace: FLOOD_WORKSPACE, id });
      await closed;
    },
  };
}

function tmuxFlood(tmux: TmuxServer): Flood {
  let pane = '';
  return {
    async start() {
      pane = await tmux.newSession(FLOOD_WORKSPACE, FLOOD, ECHO_COLS, ECHO_ROWS);
      await until(
        async () =>
          Number(await tmux.tmux(['display-message', '-p', '-t', pane, '#{history_size}'])) > 0
            ? true
            : undefined,
        'the flood to reach tmux',
        10_000,
      );
    },
    async stop() {
      await tmux.tmux(['kill-session', '-t', FLOOD_WORKSPACE]);
    },
  };
}

async function floodedEcho(target: EchoTarget, flood: Flood, count: number): Promise<number[]> {
  await flood.start();
  try {
    return await measureEcho(target, count);
  } finally {
    await flood.stop();
  }
}

/**
 * What one parser write of A's flood costs, by write size, measured in this process on a pane-like
 * Terminal whose history is already full: while it is parsed, nothing else on the server runs.
 */
async function floodWriteCost(): Promise<Table> {
  const shape = { cols: ECHO_COLS, rows: ECHO_ROWS, scrollback: 10_000 };
  const full = Buffer.from('y\r\n'.repeat(10_100));
  const rows: string[][] = [];
  for (const kib of [64, 16, 4]) {
    const times = await timeWrites(
      shape,
      Buffer.from('y\r\n'.repeat(Math.floor((kib * 1024 * 30) / 3))),
      kib * 1024,
      full,
    );
    rows.push([
      `${kib} KiB (${Math.floor((kib * 1024) / 3).toLocaleString('en-US')} lines)`,
      formatMs(percentile(times, 50)),
      formatMs(percentile(times, 100)),
    ]);
  }
  return {
    title: 'one parser write of `yes` output (30 of each, history full), in the bench process',
    head: ['write', 'p50', 'max'],
    rows,
  };
}

/** One flooded round on a fux server under `--cpu-prof`: where its time goes while B waits. */
function profileFux(count: number): Promise<Table[]> {
  return profileFuxServer('one flooded round', async (server) => {
    const conn = await server.connect();
    const events = await FuxEventStream.open(conn, ['pane.output', 'pane.closed']);
    const target = await fuxEchoTarget(conn, events, PANES, server.home);
    await floodedEcho(target, fuxFlood(conn, events, server.home), count);
    events.close();
    conn.close();
  });
}

async function run(options: BenchOptions): Promise<Section> {
  const rounds = options.quick ? 2 : 4;
  const perRound = options.quick ? 20 : 50;
  const fux = await FuxServer.start();
  const tmux = await TmuxServer.start({ historyLimit: 10_000, cols: ECHO_COLS, rows: ECHO_ROWS });
  const samples = { fux: [] as number[], tmux: [] as number[] };
  try {
    const conn = await fux.connect();
    const events = await FuxEventStream.open(conn, ['pane.output', 'pane.closed']);
    const { target: tmuxTarget, control } = await tmuxEchoTarget(tmux, PANES);
    const sides: { name: keyof typeof samples; target: EchoTarget; flood: Flood }[] = [
      {
        name: 'fux',
        target: await fuxEchoTarget(conn, events, PANES, fux.home),
        flood: fuxFlood(conn, events, fux.home),
      },
      { name: 'tmux', target: tmuxTarget, flood: tmuxFlood(tmux) },
    ];
    for (let r = 0; r < rounds; r++) {
      for (const { name, target, flood } of r % 2 ? [...sides].reverse() : sides) {
        const latencies = await floodedEcho(target, flood, perRound);
        samples[name].push(...latencies);
        options.log(`B3 round ${r + 1}/${rounds} ${name}: p99 ${formatMs(percentile(latencies, 99))}`);
      }
    }
    events.close();
    conn.close();
    await control.close();
  } finally {
    await tmux.stop();
    await fux.stop();
  }
  const profile = options.profile ? [await floodWriteCost(), ...(await profileFux(perRound))] : [];
  const row = (label: string, p: number, target: string): string[] => {
    const f = percentile(samples.fux, p);
    const t = percentile(samples.tmux, p);
    return [label, formatMs(f), formatMs(t), formatRatio(f / t), target];
  };
  const p99 = percentile(samples.fux, 99);
  return {
    id: 'B3',
    title: 'echo under flood',
    method: [
      `B2's measurement on the ${PANES} \`cat\` panes (B) while pane A, ${ECHO_COLS}×${ECHO_ROWS} in another workspace (tmux: another session, so its output is not sent to the control client), runs \`${FLOOD.join(' ')}\``,
      `only the side being measured floods: each round starts A, waits until its output reaches the server, times ${perRound} keystrokes (each pane ≥ ${PANE_GAP_MS} ms apart), then kills A`,
      `${rounds} rounds per side, fux and tmux alternating; percentiles over all ${rounds * perRound}`,
    ],
    tables: [
      {
        head: ['percentile', 'fux', 'tmux', 'fux/tmux', 'target'],
        rows: [row('p50', 50, ''), row('p90', 90, ''), row('p99', 99, '≤ 20 ms'), row('max', 100, '')],
      },
      ...profile,
    ],
    verdicts: [{ target: 'p99 ≤ 20 ms', measured: formatMs(p99), met: p99 <= 20 }],
  };
}

export const floodEcho: Benchmark = { id: 'B3', title: 'echo under flood', run };
