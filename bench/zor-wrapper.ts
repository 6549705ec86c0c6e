/**
 * The wrapper's cost on bulk output: `seq 1 3000000` in a 200×50 pty, bare and under `zor --`, from
 * spawn until the pty closes with every byte read. util-linux `script` (a pty-in-a-pty wrapper in C
 * that parses nothing) runs alongside as the floor any pty wrapper pays on this machine. Runs are
 * interleaved and each figure is a median. Target (issue 3): zor overhead ≤ 10 % over bare.
 *
 * zor runs as the real oclif command, bundled from src/ with esbuild (as the tests do), so no build
 * is needed. Standalone: `node -r ./scripts/capture-register.js bench/zor-wrapper.ts [--quick]`; or
 * as `zorWrapper` from bench/run.ts.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as pty from 'node-pty';
import { zorScript } from '../test/zor/support/zor-cli';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, median } from './lib/stats';

const COLS = 200;
const ROWS = 50;
const TARGET_OVERHEAD = 0.1;

interface Run {
  readonly ms: number;
  readonly bytes: number;
}

function timeInPty(file: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    let bytes = 0;
    // ZOR_PID cleared: a bench started inside zor must not make the zor under test run nested.
    const terminal = pty.spawn(file, [...args], {
      cols: COLS,
      rows: ROWS,
      encoding: null,
      env: { ...process.env, ZOR_PID: '' },
    });
    terminal.onData((data: string | Buffer) => {
      bytes += data.length;
    });
    terminal.onExit(() => resolve({ ms: performance.now() - started, bytes }));
  });
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
    const zor = await zorScript();
    const sides: { name: string; command: readonly [string, readonly string[]] }[] = [
      { name: 'bare', command: seq },
      ...(hasScript()
        ? [{ name: 'script(1)', command: ['script', ['-qfec', `seq 1 ${lines}`, '/dev/null']] as const }]
        : []),
      { name: 'zor', command: [process.execPath, [zor, 'zor', '--', 'seq', '1', String(lines)]] },
    ];
    const runs = new Map<string, Run[]>(sides.map((side) => [side.name, []]));
    for (let repetition = 0; repetition < repetitions; repetition++) {
      for (const side of sides) {
        const run = await timeInPty(side.command[0], side.command[1]);
        options.log(`  ${side.name} run ${repetition + 1}: ${formatMs(run.ms)}, ${run.bytes} bytes`);
        runs.get(side.name)!.push(run);
      }
    }
    const medianOf = (name: string) => median(runs.get(name)!.map((run) => run.ms));
    const bare = medianOf('bare');
    const overhead = medianOf('zor') / bare - 1;
    return {
      id: 'Z2',
      title: 'zor wrapper overhead on bulk output',
      method: [
        `\`seq 1 ${lines}\` in a ${COLS}×${ROWS} pty read by node-pty, from spawn to close; median of ${repetitions} interleaved runs`,
        'script(1) is a C pty wrapper that parses nothing: the floor for any pty-in-a-pty here',
      ],
      tables: [
        {
          head: ['command', 'median', 'vs bare', 'bytes read (last run)'],
          rows: sides.map((side) => {
            const ms = medianOf(side.name);
            const last = runs.get(side.name)!.at(-1)!;
            return [side.name, formatMs(ms), `${((ms / bare - 1) * 100).toFixed(0)} %`, String(last.bytes)];
          }),
        },
      ],
      verdicts: [
        {
          target: `zor overhead ≤ ${TARGET_OVERHEAD * 100} %`,
          measured: `${(overhead * 100).toFixed(0)} %`,
          met: overhead <= TARGET_OVERHEAD,
        },
      ],
    };
  },
};
