import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as pty from 'node-pty';
import { cpuMs } from './lib/cpu-time';
import { oneProcess, relayClient, startRelayServer } from './lib/floor-programs';
import { FuxServer } from './lib/fux-server';
import { KeystrokeCpu, keystrokeCpuRow, type ProcessesOnPath } from './lib/keystroke-cpu';
import { fuxBin, tmuxBin } from './lib/repo';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, formatRatio, median, percentile } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { sleep, until, within } from './lib/wait';

const COLS = 200;
const ROWS = 50;
/** A paint of the attach client is one synchronized update (DECSET 2026), so a frame is countable. */
const FRAME_START = '\x1b[?2026h';

/** A terminal of the bench's own: an attach client (fux or tmux) on a pty whose output we count. */
class OuterTerminal {
  bytes = 0;
  frames = 0;
  private tail = '';
  private waiters: Array<{ text: string; resolve: () => void }> = [];
  readonly term: pty.IPty;

  constructor(file: string, args: string[], env: Record<string, string | undefined>) {
    this.term = pty.spawn(file, args, { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: '/', env });
    this.term.onData((d) => this.data(d));
  }

  private data(d: string): void {
    this.bytes += Buffer.byteLength(d);
    const joined = this.tail + d;
    let i = joined.indexOf(FRAME_START);
    while (i !== -1) {
      this.frames++;
      i = joined.indexOf(FRAME_START, i + FRAME_START.length);
    }
    for (const w of [...this.waiters]) {
      if (joined.includes(w.text)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    this.tail = joined.slice(-64);
  }

  /** Resolves when `text` next appears in the output (from now on). */
  next(text: string): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ text, resolve }));
  }

  kill(): void {
    this.term.kill('SIGKILL');
  }
}

async function attachFux(server: FuxServer, workspace: string): Promise<OuterTerminal> {
  const t = new OuterTerminal(process.execPath, [fuxBin, workspace], {
    ...server.env,
    TERM: 'xterm-256color',
    // The echo is timed, not a local guess: on a loaded machine the round trip can pass the
    // predictor's threshold, and a predicted letter would show before the server's echo.
    FUX_PREDICT: 'never',
  });
  const conn = await server.connect();
  try {
    await until(
      async () =>
        (await conn.client.list.query({})).workspaces.find((w) => w.name === workspace)?.panes.length,
      'the attach to create its workspace',
      15_000,
      20,
    );
  } finally {
    conn.close();
  }
  return t;
}

/** Keystroke to screen: type a letter into the outer terminal, time until the attach client draws it. */
async function echoTimes(t: OuterTerminal, count: number, client: string): Promise<number[]> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const ch = letters[i % letters.length]!;
    const seen = t.next(ch);
    const start = performance.now();
    t.term.write(ch);
    await within(seen, 5_000, `the echo of key ${i + 1} on ${client}'s attached screen`);
    times.push(performance.now() - start);
    await sleep(20);
    if (i % 40 === 39) {
      t.term.write('\x15'); // C-u: keep the line short
      await sleep(50);
    }
  }
  return times;
}

async function run(options: BenchOptions): Promise<Section> {
  const floodSeconds = options.quick ? 3 : 8;
  const echoes = options.quick ? 60 : 300;
  const server = await FuxServer.start();
  const tmux = await TmuxServer.start({ historyLimit: 10_000, cols: COLS, rows: ROWS });
  let relay: ChildProcess | undefined;
  try {
    // Flood: a pane printing as fast as it can, the attached client counted at its terminal.
    options.log('  flood through the attach client…');
    const conn = await server.connect();
    await conn.client.workspace.new.mutate({ name: 'flood', cols: COLS, rows: ROWS - 2 });
    await conn.client.new.mutate({
      workspace: 'flood',
      argv: ['sh', '-c', 'sleep 1; exec seq 1 999999999'],
      cwd: server.home,
    });
    conn.close();
    const flood = await attachFux(server, 'flood');
    const clientPid = flood.term.pid;
    await sleep(1500);
    const b0 = flood.bytes;
    const f0 = flood.frames;
    const c0 = cpuMs(clientPid);
    const t0 = performance.now();
    await sleep(floodSeconds * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    const bytes = flood.bytes - b0;
    const frames = flood.frames - f0;
    const cpu = (cpuMs(clientPid) - c0) / 1000 / elapsed;
    flood.kill();
    // The flooding pane outlives its client: left running, it would keep fux's server parsing
    // `seq` (a core's worth) through the echo measurement below, which tmux's server is spared.
    const c1 = await server.connect();
    await c1.client.workspace.kill.mutate({ name: 'flood' });
    c1.close();

    // Echo: a `cat` pane, keystrokes typed into each attach client's terminal.
    options.log('  keystroke echo, fux attach vs tmux attach…');
    const c2 = await server.connect();
    await c2.client.workspace.new.mutate({ name: 'echo', cols: COLS, rows: ROWS - 2 });
    await c2.client.new.mutate({ workspace: 'echo', argv: ['cat'], cwd: server.home });
    c2.close();
    const fuxTerm = await attachFux(server, 'echo');
    await sleep(500);
    await tmux.newSession('echo', ['cat'], COLS, ROWS);
    const tmuxEnv = { ...tmux.env, TERM: 'xterm-256color' };
    const tmuxTerm = new OuterTerminal(tmuxBin, [...tmux.argv.slice(1), 'attach', '-t', 'echo'], tmuxEnv);
    // The floors: the same echo through bare node programs, one process and two.
    relay = await startRelayServer(path.join(server.home, 'floor.sock'), 1, COLS, ROWS - 2);
    const env = { ...process.env, TERM: 'xterm-256color' };
    const twoTerm = new OuterTerminal(
      process.execPath,
      ['-e', relayClient(path.join(server.home, 'floor.sock'))],
      env,
    );
    const oneTerm = new OuterTerminal(process.execPath, ['-e', oneProcess(COLS, ROWS - 2)], env);
    await sleep(500);
    const fuxEcho: number[] = [];
    const tmuxEcho: number[] = [];
    const twoEcho: number[] = [];
    const oneEcho: number[] = [];
    const fuxCpu = new KeystrokeCpu();
    const tmuxCpu = new KeystrokeCpu();
    const twoCpu = new KeystrokeCpu();
    const oneCpu = new KeystrokeCpu();
    // The processes on each side's path besides the bench (the outer terminal): its server and client.
    const onPath = (server: number | undefined, client: OuterTerminal): ProcessesOnPath => ({
      server,
      clients: [client.term.pid],
    });
    const sides = [
      { echo: fuxEcho, term: fuxTerm, name: 'fux', cpu: fuxCpu, processes: onPath(server.pid, fuxTerm) },
      { echo: tmuxEcho, term: tmuxTerm, name: 'tmux', cpu: tmuxCpu, processes: onPath(tmux.pid, tmuxTerm) },
      {
        echo: twoEcho,
        term: twoTerm,
        name: 'the two-process floor',
        cpu: twoCpu,
        processes: onPath(relay.pid, twoTerm),
      },
      // The one-process floor is its own server.
      {
        echo: oneEcho,
        term: oneTerm,
        name: 'the one-process floor',
        cpu: oneCpu,
        processes: { server: oneTerm.term.pid, clients: [] },
      },
    ];
    for (let round = 0; round < 2; round++) {
      for (const { echo, term, name, cpu, processes } of sides) {
        echo.push(...(await cpu.over(processes, echoes / 2, () => echoTimes(term, echoes / 2, name))));
      }
    }
    for (const t of [fuxTerm, tmuxTerm, twoTerm, oneTerm]) t.kill();

    // A screen's worth: every row's text plus the cursor move that starts it (a full plain repaint).
    const screenBytes = ROWS * (COLS + 8);
    const perFrame = frames ? bytes / frames : bytes;
    const fps = frames / elapsed;
    return {
      id: 'B8',
      title: 'attach: frames, bytes and client CPU under a flood; keystroke echo through the attach path',
      method: [
        `a real \`fux\` attach client on a ${COLS}×${ROWS} pty owned by the bench (the outer terminal), its output counted; one pane runs \`seq 1 999999999\` (every row changes) for ${floodSeconds} s`,
        'a frame is one synchronized update (`CSI ? 2026 h`) the client writes; client CPU from /proc over the same window',
        `echo: a \`cat\` pane; the bench types a letter into the outer terminal and times until it shows in the client's output; ${echoes} keys each, fux, \`tmux attach\` and the two floors interleaved in two rounds`,
        "floors (bench/lib/floor-programs.ts): bare node programs that only move the bytes and parse the pane's output with xterm: two processes (a client relaying keys and output over a unix socket as JSON lines, fux's shape) and one (the outer terminal and the pane's pty in one process, tmux's shape: its server reads and writes the client's terminal itself)",
      ],
      tables: [
        {
          head: ['measure', 'value'],
          rows: [
            ['frames per second', fps.toFixed(1)],
            ['bytes per second to the terminal', `${(bytes / elapsed / 1024).toFixed(0)} KiB`],
            ['bytes per frame', `${perFrame.toFixed(0)} (a full plain repaint: ${screenBytes})`],
            ['client CPU', `${(cpu * 100).toFixed(1)} % of a core`],
          ],
        },
        {
          head: ['echo', 'p50', 'p99'],
          rows: [
            ['fux attach', formatMs(percentile(fuxEcho, 50)), formatMs(percentile(fuxEcho, 99))],
            ['tmux attach', formatMs(percentile(tmuxEcho, 50)), formatMs(percentile(tmuxEcho, 99))],
            [
              'floor, two node processes',
              formatMs(percentile(twoEcho, 50)),
              formatMs(percentile(twoEcho, 99)),
            ],
            ['floor, one node process', formatMs(percentile(oneEcho, 50)), formatMs(percentile(oneEcho, 99))],
            ['fux / tmux (p50)', formatRatio(median(fuxEcho) / median(tmuxEcho)), ''],
            [
              'floors / tmux (p50): two, one',
              `${formatRatio(median(twoEcho) / median(tmuxEcho))}, ${formatRatio(median(oneEcho) / median(tmuxEcho))}`,
              '',
            ],
            ['fux / two-process floor (p50)', formatRatio(median(fuxEcho) / median(twoEcho)), ''],
          ],
        },
        {
          title:
            "CPU per keystroke of each side's echo: what its processes spent on a CPU while it was typed into (the one-process floor has only a server; the bench, the outer terminal, is in every side's client column)",
          head: ['side', 'server', 'client (the attach client, and this process)', 'total', "total / tmux's"],
          rows: [
            keystrokeCpuRow('fux', fuxCpu, tmuxCpu),
            keystrokeCpuRow('tmux', tmuxCpu, tmuxCpu),
            keystrokeCpuRow('floor, two processes', twoCpu, tmuxCpu),
            keystrokeCpuRow('floor, one process', oneCpu, tmuxCpu),
          ],
        },
      ],
      verdicts: [
        { target: '≤ 60 frames/s', measured: fps.toFixed(1), met: fps <= 61 },
        {
          target: '≤ one screen per frame',
          measured: `${perFrame.toFixed(0)} B vs ${screenBytes}`,
          met: perFrame <= screenBytes,
        },
        { target: 'client ≤ 30 % of a core', measured: `${(cpu * 100).toFixed(1)} %`, met: cpu <= 0.3 },
        {
          target: 'echo p50 ≤ 1.5 × tmux attach (goal ≤ tmux)',
          measured: `${formatMs(median(fuxEcho))} vs ${formatMs(median(tmuxEcho))} (${formatRatio(median(fuxEcho) / median(tmuxEcho))})`,
          met: median(fuxEcho) <= 1.5 * median(tmuxEcho),
        },
        {
          target: 'echo p99 ≤ 5 ms (idle machine)',
          measured: formatMs(percentile(fuxEcho, 99)),
          met: percentile(fuxEcho, 99) <= 5,
        },
      ],
    };
  } finally {
    relay?.kill('SIGKILL');
    await tmux.stop();
    await server.stop();
  }
}

export const attach: Benchmark = { id: 'B8', title: 'attach', run };
