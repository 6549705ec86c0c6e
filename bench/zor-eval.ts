/**
 * Rule evaluation per screen change at 200×50, for each rule set (the bundled ones in rules/, and
 * the engine's test set): p50 and p99 of (a) reading the detection window from an @xterm/headless
 * terminal plus evaluating, which is what a pane pays per change, and (b) evaluating alone.
 * Target (issue 3): evaluation ≤ 0.5 ms p99.
 *
 * Screens are the set's fixtures laid into a 200×50 terminal under a full screen of long transcript
 * lines, so every window is 50 rows of up to 200 columns. Standalone:
 * `node -r ./scripts/capture-register.js bench/zor-eval.ts [--quick]`; or as `zorEval` from
 * bench/run.ts.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/headless';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseFixture, type Fixture } from '../src/zor/fixture/fixture';
import { evaluate } from '../src/zor/rules/evaluate';
import type { RuleSet } from '../src/zor/rules/rule-set';
import { loadRuleDirectories } from '../src/zor/rules/sources';
import { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, percentile } from './lib/stats';

const COLS = 200;
const ROWS = 50;
const TARGET_P99_MS = 0.5;
const REPO = join(__dirname, '..');

interface Subject {
  readonly set: RuleSet;
  readonly fixtures: readonly Fixture[];
}

function fixturesIn(dir: string): Fixture[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => parseFixture(readFileSync(join(dir, name), 'utf8'), name));
}

function subjects(): Subject[] {
  const sources = [
    { rules: join(REPO, 'rules'), fixtures: join(REPO, 'fixtures') },
    {
      rules: join(REPO, 'test', 'zor', 'data', 'rules'),
      fixtures: join(REPO, 'test', 'zor', 'data', 'fixtures'),
    },
  ];
  return sources.flatMap((source) =>
    loadRuleDirectories([{ dir: source.rules, origin: 'flag' }])
      .sets.map(({ set }) => ({ set, fixtures: fixturesIn(join(source.fixtures, set.id)) }))
      .filter((subject) => subject.fixtures.length > 0),
  );
}

/** A transcript line of about 180 columns, different per row so no two screens compare equal. */
function filler(row: number, round: number): string {
  const words = `round ${round} row ${row} the agent explains what it changed and why, file by file, `;
  return words.repeat(4).slice(0, 180);
}

function screenBytes(fixture: Fixture, round: number): string {
  const fill = Math.max(0, ROWS - fixture.lines.length - 1);
  const lines = [...Array.from({ length: fill }, (_, row) => filler(row, round)), ...fixture.lines];
  return `\x1b]2;${fixture.title}\x07\x1b[H\x1b[2J${lines.join('\r\n')}`;
}

function write(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

interface Measured {
  readonly set: RuleSet;
  readonly screens: number;
  readonly withWindow: number[];
  readonly evaluateOnly: number[];
}

async function measure(subject: Subject, changes: number): Promise<Measured> {
  const terminal = new Terminal({ cols: COLS, rows: ROWS, scrollback: ROWS * 2, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  const view = new XtermScreenView(terminal);
  const withWindow: number[] = [];
  const evaluateOnly: number[] = [];
  for (let change = 0; change < changes; change++) {
    const fixture = subject.fixtures[change % subject.fixtures.length]!;
    await write(terminal, screenBytes(fixture, change));
    let started = performance.now();
    view.takeChanged();
    evaluate(subject.set, view);
    withWindow.push(performance.now() - started);
    started = performance.now();
    evaluate(subject.set, view);
    evaluateOnly.push(performance.now() - started);
  }
  view.dispose();
  terminal.dispose();
  return { set: subject.set, screens: subject.fixtures.length, withWindow, evaluateOnly };
}

export const zorEval: Benchmark = {
  id: 'Z1',
  title: 'zor rule evaluation per screen change (200×50)',
  async run(options: BenchOptions): Promise<Section> {
    const changes = options.quick ? 300 : 3000;
    const results: Measured[] = [];
    for (const subject of subjects()) {
      options.log(`  ${subject.set.id}: ${changes} screen changes`);
      results.push(await measure(subject, changes));
    }
    const worstP99 = Math.max(...results.map((result) => percentile(result.evaluateOnly, 99)));
    return {
      id: 'Z1',
      title: 'zor rule evaluation per screen change (200×50)',
      method: [
        `${changes} screen changes per rule set, cycling through its fixtures drawn under a full screen of 180-column transcript lines`,
        'window + evaluate: takeChanged() (reads the 50-row detection window from xterm) then evaluate(); evaluate: evaluate() on the cached window',
      ],
      tables: [
        {
          head: ['rule set', 'rules', 'screens', 'window + evaluate p50', 'p99', 'evaluate p50', 'p99'],
          rows: results.map((result) => [
            result.set.id,
            String(result.set.rules.length),
            String(result.screens),
            formatMs(percentile(result.withWindow, 50)),
            formatMs(percentile(result.withWindow, 99)),
            formatMs(percentile(result.evaluateOnly, 50)),
            formatMs(percentile(result.evaluateOnly, 99)),
          ]),
        },
      ],
      verdicts: [
        {
          target: `evaluation ≤ ${TARGET_P99_MS} ms p99 for every set`,
          measured: formatMs(worstP99),
          met: worstP99 <= TARGET_P99_MS,
        },
      ],
    };
  },
};
