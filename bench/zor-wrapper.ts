/**
 * The wrapper's cost. Bulk output: `seq 1 3000000` in a 200×50 pty, bare and under `zor --`, from
 * spawn until the pty closes with every byte read; util-linux `script` (a pty-in-a-pty wrapper in
 * C that parses nothing) runs alongside as the floor any pty wrapper pays on this machine. Start:
 * `zor -- true` against `node -e 0`, through bin/zor as shipped (its wrapper form runs without
 * oclif, src/client/cli/zor-fast-path.ts). Runs are interleaved and each figure is a
 * median. Targets (issue 11): overhead ≤ 25 % (goal 10 %), start ≤ 1.5 × node.
 *
 * Both run the build (dist/) through bin/zor, as a user does. Run as `npm run bench -- z2`, or in
 * place from a worktree (whose node_modules is a link, so the bundled bench would find the main
 * tree): `node -r ./scripts/capture-register.js bench/run.ts z2`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as pty from 'node-pty';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { repoRoot } from './lib/repo';
import { formatMs, median } from './lib/stats';

const COLS = 200;
const ROWS = 50;
const TARGET_OVERHEAD = 0.25;
const GOAL_OVERHEAD = 0.1;
const TARGET_START = 1.5;
const BIN_ZOR = join(repoRoot, 'bin', 'zor');

/** GNU time: the CPU time of the command and every process it waited for. */
const TIME = '/usr/bin/time';

interface Run {
  readonly ms: number;
  readonly bytes: number;
  /** User + system time of the command's processes (seq, script or zor and its relay), if known. */
  readonly cpuMs: number | undefined;
}

function timeInPty(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  // Wall time says little on a loaded machine; the CPU the command's processes used says more.
  const timed = existsSync(TIME) ? mkdtempSync(join(tmpdir(), 'fux-z2-')) : undefined;
  const timeFile = timed === undefined ? undefined : join(timed, 'cpu');
  const [command, ...rest] =
    timeFile === undefined ? [file, ...args] : [TIME, '-o', timeFile, '-f', '%U %S', file, ...args];
  return new Promise((resolve) => {
    const started = performance.now();
    let bytes = 0;
    // ZOR_PID cleared: a bench started inside zor must not make the zor under test run nested.
    const terminal = pty.spawn(command!, rest, {
      cols: COLS,
      rows: ROWS,
      encoding: null,
      env: { ...process.env, ZOR_PID: '', ...env },
    });
    terminal.onData((data: string | Buffer) => {
      bytes += data.length;
    });
    terminal.onExit(() => {
      const ms = performance.now() - started;
      let cpuMs: number | undefined;
      if (timeFile !== undefined) {
        const [user, system] = readFileSync(timeFile, 'utf8').trim().split(' ').map(Number) as [
          number,
          number,
        ];
        cpuMs = (user + system) * 1000;
        rmSync(timed!, { recursive: true, force: true });
      }
      resolve({ ms, bytes, cpuMs });
    });
  });
}

/** Median wall time of each command run alone in a pty, interleaved over `repetitions` rounds. */
async function startTimes(
  sides: readonly { name: string; command: readonly string[]; env?: NodeJS.ProcessEnv }[],
  repetitions: number,
): Promise<Map<string, number>> {
  const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const side of sides) {
      const run = await timeInPty(side.command[0]!, side.command.slice(1), side.env);
      times.get(side.name)!.push(run.ms);
    }
  }
  return new Map([...times].map(([name, ms]) => [name, median(ms)]));
}

function hasScript(): boolean {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

export const zorWrapper: Benchmark = {
  id: 'Z2',
  title: 'zor wrapper overhead on bulk output',
  async run(options: BenchOptions): Promise<Section> {
    const lines = options.quick ? 300_000 : 3_000_000;
    const repetitions = options.quick ? 1 : 5;
    const seq = ['seq', ['1', String(lines)]] as const;
    const sides: {
      name: string;
      command: readonly [string, readonly string[]];
      env?: NodeJS.ProcessEnv;
    }[] = [
      { name: 'bare', command: seq },
      ...(hasScript()
        ? [{ name: 'script(1)', command: ['script', ['-qfec', `seq 1 ${lines}`, '/dev/null']] as const }]
        : []),
      { name: 'zor', command: [BIN_ZOR, ['--', 'seq', '1', String(lines)]] },
      // Without the native relay (native/zor-relay.c): output through node-pty, as before it.
      {
        name: 'zor, node-pty relay',
        command: [BIN_ZOR, ['--', 'seq', '1', String(lines)]],
        env: { ZOR_RELAY: '' },
      },
    ];
    const runs = new Map<string, Run[]>(sides.map((side) => [side.name, []]));
    for (let repetition = 0; repetition < repetitions; repetition++) {
      for (const side of sides) {
        const run = await timeInPty(side.command[0], side.command[1], side.env);
        options.log(
          `  ${side.name} run ${repetition + 1}: ${formatMs(run.ms)}, CPU ${run.cpuMs === undefined ? '?' : formatMs(run.cpuMs)}, ${run.bytes} bytes`,
        );
        runs.get(side.name)!.push(run);
      }
    }
    const medianOf = (name: string) => median(runs.get(name)!.map((run) => run.ms));
    const bare = medianOf('bare');
    const cpuOf = (name: string): number | undefined => {
      const cpu = runs.get(name)!.map((run) => run.cpuMs);
      return cpu.every((ms) => ms !== undefined) ? median(cpu as number[]) : undefined;
    };
    const bareCpu = cpuOf('bare');
    const overhead = medianOf('zor') / bare - 1;

    const starts = await startTimes(
      [
        { name: 'node -e 0', command: [process.execPath, '-e', '0'] },
        { name: 'bin/zor -- true', command: [BIN_ZOR, '--', 'true'] },
        { name: 'bin/zor -- true, node-pty relay', command: [BIN_ZOR, '--', 'true'], env: { ZOR_RELAY: '' } },
      ],
      options.quick ? 3 : 15,
    );
    const node = starts.get('node -e 0')!;
    const startRatio = (name: string) => starts.get(name)! / node;
    options.log(`  start: ${[...starts].map(([name, ms]) => `${name} ${formatMs(ms)}`).join(', ')}`);
    return {
      id: 'Z2',
      title: 'zor wrapper overhead on bulk output, and its start',
      method: [
        `\`seq 1 ${lines}\` in a ${COLS}×${ROWS} pty read by node-pty, from spawn to close; median of ${repetitions} interleaved runs`,
        `CPU: user + system time of the command and the processes it waited for (${TIME}), which a loaded machine inflates less than the wall time`,
        'script(1) is a C pty wrapper that parses nothing: the floor for any pty-in-a-pty here',
        'zor relays through its native helper (native/zor-relay.c); `ZOR_RELAY=` runs it through node-pty instead, as before the helper',
        `start: each command alone in a pty until it closes, median of ${options.quick ? 3 : 15} interleaved runs; bin/zor takes the oclif-free path for the wrapper form (src/client/cli/zor-fast-path.ts)`,
      ],
      tables: [
        {
          head: ['command', 'median', 'vs bare', 'CPU (median)', 'CPU vs bare', 'bytes read (last run)'],
          rows: sides.map((side) => {
            const ms = medianOf(side.name);
            const cpu = cpuOf(side.name);
            const last = runs.get(side.name)!.at(-1)!;
            return [
              side.name,
              formatMs(ms),
              `${((ms / bare - 1) * 100).toFixed(0)} %`,
              cpu === undefined ? '' : formatMs(cpu),
              cpu === undefined || bareCpu === undefined ? '' : `${((cpu / bareCpu - 1) * 100).toFixed(0)} %`,
              String(last.bytes),
            ];
          }),
        },
        {
          head: ['start', 'median', 'vs node -e 0'],
          rows: [...starts].map(([name, ms]) => [name, formatMs(ms), `${startRatio(name).toFixed(2)}×`]),
        },
      ],
      verdicts: [
        {
          target: `zor overhead ≤ ${TARGET_OVERHEAD * 100} % (goal ${GOAL_OVERHEAD * 100} %)`,
          measured: `${(overhead * 100).toFixed(0)} %`,
          met: overhead <= TARGET_OVERHEAD,
        },
        {
          target: `\`zor -- true\` ≤ ${TARGET_START} × \`node -e 0\``,
          measured: `${startRatio('bin/zor -- true').toFixed(2)}×`,
          met: startRatio('bin/zor -- true') <= TARGET_START,
        },
      ],
    };
  },
};
