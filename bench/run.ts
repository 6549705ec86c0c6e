/**
 * `npm run bench [-- [--quick] [--profile] [b1 b2 …]]`: the benchmarks of DESIGN.md §9, fux side
 * by side with tmux in the same run, printed as markdown tables with ratios and a summary of the
 * targets. Progress goes to stderr, the report to stdout.
 */
import * as os from 'node:os';
import { execFileSync } from 'node:child_process';
import { bulkOutput } from './b1-bulk';
import { keystrokeEcho } from './b2-echo';
import { floodEcho } from './b3-flood-echo';
import { cliVerb } from './b4-cli';
import { memory } from './b5-memory';
import { scrollbackBench } from './scrollback';
import { idleCost } from './b6-idle';
import { detectLatency } from './b7-detect';
import { attach } from './b8-attach';
import { scale } from './b10-scale';
import { paneCount } from './b11-panes';
import { soakBench } from './soak';
import { remoteEcho } from './remote-echo';
import { zorEval } from './zor-eval';
import { zorWrapper } from './zor-wrapper';
import { restoreBench } from './restore';
import { cleanUpAll } from './lib/cleanup';
import { renderSection, renderSummary, type Benchmark, type Section } from './lib/report';
import { assertReady, tmuxBin } from './lib/repo';

const benchmarks: Benchmark[] = [
  bulkOutput,
  keystrokeEcho,
  floodEcho,
  cliVerb,
  memory,
  scrollbackBench,
  idleCost,
  detectLatency,
  attach,
  scale,
  paneCount,
  remoteEcho,
  zorEval,
  zorWrapper,
  restoreBench,
];
/** Run only when named: the soak takes ten minutes. */
const onRequest: Benchmark[] = [soakBench];
const known = [...benchmarks, ...onRequest];

const usage = `usage: npm run bench -- [--quick] [--profile] [${known.map((b) => b.id.toLowerCase()).join(' ')}]
  --quick    a smoke run: small inputs, few repetitions (figures only indicative)
  --profile  also CPU-profile the fux server during B1 and B3
  names      run only these benchmarks (default: all but ${onRequest.map((b) => b.id.toLowerCase()).join(', ')})`;

function parseArgs(argv: string[]): { quick: boolean; profile: boolean; selected: Benchmark[] } {
  let quick = false;
  let profile = false;
  const names: string[] = [];
  for (const arg of argv) {
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    } else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}\n${usage}`);
    else names.push(arg.toUpperCase());
  }
  const unknown = names.filter((n) => !known.some((b) => b.id === n));
  if (unknown.length) throw new Error(`no benchmark ${unknown.join(', ')}\n${usage}`);
  const selected = names.length ? known.filter((b) => names.includes(b.id)) : benchmarks;
  return { quick, profile, selected };
}

function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const tmux = execFileSync(tmuxBin, ['-V'], { encoding: 'utf8' }).trim();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, node ${process.version}, ${tmux}; load average at start ${load}`;
}

async function main(): Promise<void> {
  const { quick, profile, selected } = parseArgs(process.argv.slice(2));
  assertReady();
  const log = (message: string): void => void process.stderr.write(`${message}\n`);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => void cleanUpAll().finally(() => process.exit(130)));
  }
  const started = Date.now();
  const sections: Section[] = [];
  process.stdout.write(
    `## Run of ${new Date().toISOString()}${quick ? ' (--quick)' : ''}\n\n${machine()}\n\n`,
  );
  for (const bench of selected) {
    log(`${bench.id} ${bench.title}…`);
    const section = await bench.run({ quick, profile, log });
    sections.push(section);
    process.stdout.write(`${renderSection(section)}\n`);
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(
    `${renderSummary(sections)}\n\nTotal time ${seconds} s; load average at the end ${load}.\n`,
  );
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  await cleanUpAll();
  process.exit(1);
});
