import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readProfiles, selfTime, startupBreakdown, top } from './lib/cpu-profile';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section, Table } from './lib/report';
import { fuxBin, repoRoot } from './lib/repo';
import { formatMs, formatRatio, median, percentile } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';

const PANES = 3;

/** Wall time of one process, from spawn to its exit with stdout drained; fails on a non-zero exit. */
function timed(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`${argv.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

interface Contender {
  label: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  times: number[];
}

/** `fux list --json` under `--cpu-prof`, several times: where a verb's time goes, averaged. */
async function profileCli(server: FuxServer, runs: number): Promise<{ tables: Table[]; wallMs: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-cli-prof-'));
  try {
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      walls.push(
        await timed(
          [process.execPath, '--cpu-prof', `--cpu-prof-dir=${dir}`, fuxBin, 'list', '--json'],
          server.env,
        ),
      );
    }
    const profiles = readProfiles(dir);
    const { exclusive, inclusive, spanMs } = startupBreakdown(profiles, fuxBin);
    const byFunction = new Map([...selfTime(profiles).byFunction].map(([k, v]) => [k, v / runs]));
    const rows = (m: Map<string, number>, n: number): string[][] =>
      top(m, n).map(([k, v]) => [k, formatMs(v), `${((100 * v) / spanMs).toFixed(1)} %`]);
    const wallMs = median(walls);
    const note = `mean of ${runs} profiled runs; the profile spans ${formatMs(spanMs)} of the ${formatMs(wallMs)} wall time (the rest is node starting before the profiler and exiting after it)`;
    return {
      wallMs,
      tables: [
        {
          title: `\`fux list --json\` CPU profile by what runs (${note})`,
          head: ['where', 'time', 'share of profile'],
          rows: rows(exclusive, 16),
        },
        {
          title:
            'the same time, module loading charged to the first module required (a package with all it requires)',
          head: ['where', 'time', 'share of profile'],
          rows: rows(inclusive, 10),
        },
        {
          title: 'the same time by function (self time)',
          head: ['function', 'time', 'share of profile'],
          rows: rows(byFunction, 14),
        },
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(options: BenchOptions): Promise<Section> {
  const runs = options.quick ? 5 : 25;
  const fux = await FuxServer.start();
  const tmux = await TmuxServer.start({ historyLimit: 2000, cols: 200, rows: 50 });
  let profile: { tables: Table[]; wallMs: number };
  const node = process.execPath;
  // What the verb costs without oclif: node, the built typed client, one `list` call.
  const clientOnly = `require(${JSON.stringify(path.join(repoRoot, 'dist', 'client'))}).connect({autostart:false}).then(async (c) => { process.stdout.write(JSON.stringify(await c.client.list.query({}))); c.close(); })`;
  const contenders: Contender[] = [
    { label: '`node -e 0` (the floor)', argv: [node, '-e', '0'], env: fux.env, times: [] },
    { label: '`fux list --json`', argv: [node, fuxBin, 'list', '--json'], env: fux.env, times: [] },
    { label: '`tmux list-panes -a`', argv: [...tmux.argv, 'list-panes', '-a'], env: tmux.env, times: [] },
    {
      label: 'node + `dist/client` `list` (no oclif)',
      argv: [node, '-e', clientOnly],
      env: fux.env,
      times: [],
    },
  ];
  try {
    const conn = await fux.connect();
    await conn.client.workspace.new.mutate({ name: 'cli', cols: 200, rows: 50 });
    for (let i = 0; i < PANES; i++)
      await conn.client.new.mutate({ workspace: 'cli', argv: ['cat'], cwd: fux.home });
    conn.close();
    await tmux.newSession('cli', ['cat'], 200, 50);
    for (let i = 1; i < PANES; i++) await tmux.tmux(['split-window', '-d', '-t', 'cli:', 'cat']);
    for (const c of contenders) await timed(c.argv, c.env); // warm the page cache, not counted
    for (let i = 0; i < runs; i++) {
      // Rotate the order so none always runs first (right after the previous one's exit).
      for (let j = 0; j < contenders.length; j++) {
        const c = contenders[(i + j) % contenders.length]!;
        c.times.push(await timed(c.argv, c.env));
      }
      if ((i + 1) % 5 === 0) options.log(`B4 ${i + 1}/${runs} runs`);
    }
    profile = await profileCli(fux, options.quick ? 2 : 5);
  } finally {
    await tmux.stop();
    await fux.stop();
  }
  const floor = median(contenders[0]!.times);
  const fuxMedian = median(contenders[1]!.times);
  const ratio = fuxMedian / floor;
  return {
    id: 'B4',
    title: 'CLI verb',
    method: [
      `wall time from spawn to exit, ${runs} runs of each in rotating order (after one unmeasured warm-up each), against running servers with ${PANES} \`cat\` panes each; median, p10 and p90`,
      'the last row is not a target: it is the cost of the same call through the typed client without oclif, to show what the CLI framework adds',
      `then \`node --cpu-prof bin/fux list --json\`, ${options.quick ? 2 : 5} times (median wall ${formatMs(profile.wallMs)} with the profiler on), broken down below`,
    ],
    tables: [
      {
        head: ['command', 'median', 'p10', 'p90', '× node floor', 'target'],
        rows: contenders.map((c, i) => [
          c.label,
          formatMs(median(c.times)),
          formatMs(percentile(c.times, 10)),
          formatMs(percentile(c.times, 90)),
          formatRatio(median(c.times) / floor),
          i === 1 ? '≤ 1.50×' : '',
        ]),
      },
      ...profile.tables,
    ],
    verdicts: [{ target: 'fux ≤ 1.5 × node floor', measured: formatRatio(ratio), met: ratio <= 1.5 }],
  };
}

export const cliVerb: Benchmark = { id: 'B4', title: 'CLI verb', run };
