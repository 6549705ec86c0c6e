import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import {
  floorEchoTarget,
  fuxEchoTarget,
  measureEcho,
  PANE_GAP_MS,
  tmuxEchoTarget,
  type EchoTarget,
} from './lib/echo';
import { startRelayServer } from './lib/floor-programs';
import { KeystrokeCpu, keystrokeCpuRow, type ProcessesOnPath } from './lib/keystroke-cpu';
import { ptyEchoTimes } from './lib/pty-echo';
import type { Benchmark, BenchOptions, Section, Table } from './lib/report';
import { formatMs, formatRatio, percentile } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { sleep } from './lib/wait';

const PANES = 10;
/** B2's pace: PANES keystrokes per PANE_GAP_MS. */
const PACE_MS = PANE_GAP_MS / PANES;

/** Time `count` calls of `call`, `gapMs` apart (so an echo's event is never rate-capped). */
async function timeCalls(count: number, gapMs: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
    await sleep(gapMs);
  }
  return times;
}

/**
 * Where fux's echo time goes, piece by piece, on a fresh idle server: the bare rpc round trip
 * (`server.info`, which touches no pane), the `sendKeys` reply (rpc, key decoding, the pty write
 * handed to node-pty), and node-pty's own write-to-echo round trip in this process. All at the
 * main measurement's pace (a call every PACE_MS): after a longer pause a process answers slower.
 */
async function attribute(count: number): Promise<Table> {
  const server = await FuxServer.start();
  try {
    const conn = await server.connect();
    await conn.client.workspace.new.mutate({ name: 'parts', cols: 200, rows: 50 });
    const { id } = await conn.client.new.mutate({ workspace: 'parts', argv: ['cat'], cwd: server.home });
    const rpc = await timeCalls(count, PACE_MS, () => conn.client.server.info.query({}));
    const send = await timeCalls(count, PACE_MS, () =>
      conn.client.sendKeys.mutate({ workspace: 'parts', id, keys: ['x'], literal: true }),
    );
    conn.close();
    const pty = await ptyEchoTimes(count, PACE_MS);
    const row = (label: string, xs: number[]): string[] => [
      label,
      formatMs(percentile(xs, 50)),
      formatMs(percentile(xs, 99)),
    ];
    return {
      title: `the parts of fux's echo path, ${count} of each, one every ${PACE_MS} ms, on a fresh idle server`,
      head: ['part', 'p50', 'p99'],
      rows: [
        row('rpc round trip (`server.info`)', rpc),
        row('`sendKeys` reply (rpc + keys + pty write queued)', send),
        row('node-pty alone: write a key, read the echo (in the bench process)', pty),
      ],
    };
  } finally {
    await server.stop();
  }
}

async function run(options: BenchOptions): Promise<Section> {
  const rounds = options.quick ? 2 : 4;
  const perRound = options.quick ? 20 : 50;
  const fux = await FuxServer.start();
  const tmux = await TmuxServer.start({ historyLimit: 10_000, cols: 200, rows: 50 });
  const samples = { fux: [] as number[], tmux: [] as number[], floor: [] as number[] };
  const cpu = { fux: new KeystrokeCpu(), tmux: new KeystrokeCpu(), floor: new KeystrokeCpu() };
  let relay: ChildProcess | undefined;
  try {
    const conn = await fux.connect();
    const events = await FuxEventStream.open(conn, ['pane.output']);
    const { target: tmuxTarget, control } = await tmuxEchoTarget(tmux, PANES);
    const floorSocket = path.join(fux.home, 'floor.sock');
    relay = await startRelayServer(floorSocket, PANES, 200, 50);
    const floor = await floorEchoTarget(floorSocket, PANES);
    const sides: { name: keyof typeof samples; target: EchoTarget; processes: ProcessesOnPath }[] = [
      {
        name: 'fux',
        target: await fuxEchoTarget(conn, events, PANES, fux.home),
        processes: { server: fux.pid, clients: [] },
      },
      { name: 'tmux', target: tmuxTarget, processes: { server: tmux.pid, clients: [control.pid] } },
      { name: 'floor', target: floor, processes: { server: relay.pid, clients: [] } },
    ];
    for (let r = 0; r < rounds; r++) {
      for (const { name, target, processes } of r % 2 ? [...sides].reverse() : sides) {
        const latencies = await cpu[name].over(processes, perRound + PANES, () =>
          measureEcho(target, perRound),
        );
        samples[name].push(...latencies);
        options.log(`B2 round ${r + 1}/${rounds} ${name}: p50 ${formatMs(percentile(latencies, 50))}`);
      }
    }
    events.close();
    conn.close();
    floor.close();
    await control.close();
  } finally {
    relay?.kill('SIGKILL');
    await tmux.stop();
    await fux.stop();
  }
  const parts = options.profile ? [await attribute(perRound)] : [];
  const row = (label: string, p: number, target: string): string[] => {
    const f = percentile(samples.fux, p);
    const t = percentile(samples.tmux, p);
    const floor = percentile(samples.floor, p);
    return [
      label,
      formatMs(f),
      formatMs(t),
      formatRatio(f / t),
      formatMs(floor),
      formatRatio(floor / t),
      target,
    ];
  };
  const cpuRow = (name: keyof typeof cpu): string[] => keystrokeCpuRow(name, cpu[name], cpu.tmux);
  const p50 = percentile(samples.fux, 50);
  const p99 = percentile(samples.fux, 99);
  const tmuxP50 = percentile(samples.tmux, 50);
  return {
    id: 'B2',
    title: 'keystroke echo',
    method: [
      `one long-lived connection each: fux's typed client (\`sendKeys\`, then the \`pane.output\` event of that pane on a subscription) and a tmux control-mode client (\`send-keys -l x\`, then the pane's \`%output\`); timed from the send to the event's arrival`,
      `${PANES} \`cat\` panes of 200×50 on an otherwise idle server, keystrokes round-robin, each pane's next key ≥ ${PANE_GAP_MS} ms after its last echo (fux's nudge fires at once only after 250 ms of quiet); the echo is the tty's`,
      `${rounds} rounds of ${perRound} keystrokes per side, fux, tmux and the floor alternating, after one warm-up key per pane per round; percentiles over all ${rounds * perRound}`,
      "floor (bench/lib/floor-programs.ts): a bare node server of the same `cat` panes that only moves the bytes and parses the panes' output with xterm (JSON lines on a unix socket, a raw socket in the bench): what node can do on this path",
    ],
    tables: [
      {
        head: ['percentile', 'fux', 'tmux', 'fux/tmux', 'floor', 'floor/tmux', 'target'],
        rows: [
          row('p50', 50, '≤ 1.5 × tmux (goal ≤ tmux)'),
          row('p90', 90, ''),
          row('p99', 99, '≤ 2 ms'),
          row('max', 100, ''),
        ],
      },
      {
        title:
          "CPU per keystroke: what each side's processes spent on a CPU during its rounds, over its keystrokes (warm-ups included). fux's server includes the agent detector's probes of its panes, which tmux and the floor do not have",
        head: ['side', 'server', 'client (this process, and `tmux -C`)', 'total', "total / tmux's"],
        rows: [cpuRow('fux'), cpuRow('tmux'), cpuRow('floor')],
      },
      ...parts,
    ],
    verdicts: [
      {
        target: 'p50 ≤ 1.5 × tmux -C',
        measured: `${formatMs(p50)} vs ${formatMs(tmuxP50)} (${formatRatio(p50 / tmuxP50)})`,
        met: p50 <= 1.5 * tmuxP50,
      },
      { target: 'p99 ≤ 2 ms', measured: formatMs(p99), met: p99 <= 2 },
    ],
  };
}

export const keystrokeEcho: Benchmark = { id: 'B2', title: 'keystroke echo', run };
