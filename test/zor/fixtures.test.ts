// seed 001 "Rule sets and fixtures": every fixture is evaluated and its verdict asserted; the
// bundled sets in rules/ against fixtures/ (captured from the real agents by `npm run capture`),
// the engine's test set against test/zor/data/fixtures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { judgeFixture } from '../../src/zor/fixture/check-fixture';
import { parseFixture, type Fixture } from '../../src/zor/fixture/fixture';
import { evaluate } from '../../src/zor/rules/evaluate';
import { findSet, type RuleSet } from '../../src/zor/rules/rule-set';
import { loadRuleDirectories } from '../../src/zor/rules/sources';
import { StaticScreenView } from '../../src/zor/screen/static-screen-view';
import { findInstalledAgent, type AgentName } from '../agents/installed';
import { REPO, TEST_FIXTURES, TEST_RULES } from './support/paths';

const TWO_SIZES = ['120x40', '80x24'];
const ANY_SIZE = [...TWO_SIZES, '200x50', '60x20'];

function fixtureFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => join(root, name));
}

const suites = [
  { name: 'test rule set', rulesDir: TEST_RULES, fixtures: fixtureFiles(TEST_FIXTURES) },
  {
    name: 'bundled rule sets',
    rulesDir: join(REPO, 'rules'),
    fixtures: fixtureFiles(join(REPO, 'fixtures')),
  },
].filter((suite) => suite.fixtures.length > 0);

function setFor(sets: readonly RuleSet[], fixture: Fixture): RuleSet | undefined {
  return fixture.agent === undefined ? undefined : findSet(sets, fixture.agent);
}

describe.each(suites)('fixtures against the $name', ({ rulesDir, fixtures }) => {
  const loaded = loadRuleDirectories([{ dir: rulesDir, origin: 'flag' }]);
  const sets = loaded.sets.map((entry) => entry.set);

  it('loads every rule file without errors', () => {
    expect(loaded.errors.map((error) => error.message)).toEqual([]);
  });

  it.each(fixtures.map((file) => [file.slice(REPO.length + 1), file]))(
    '%s gives its expected verdict',
    (_, file) => {
      const fixture = parseFixture(readFileSync(file, 'utf8'), file);
      const set = setFor(sets, fixture);
      expect(set).toBeDefined();
      expect(judgeFixture(fixture, set!).mismatches).toEqual([]);
    },
  );
});

/** The captured fixtures of one agent, by file name. */
function captured(agent: AgentName): Map<string, Fixture> {
  const files = fixtureFiles(join(REPO, 'fixtures', agent));
  return new Map(files.map((file) => [basename(file), parseFixture(readFileSync(file, 'utf8'), file)]));
}

const bundled = loadRuleDirectories([{ dir: join(REPO, 'rules'), origin: 'bundled' }]).sets.map(
  (entry) => entry.set,
);
/**
 * What each captured agent was captured at, and what its screens can show: Codex draws nothing on
 * screen while a reply streams (only its title spins), OpenCode's title never says it is working.
 */
interface CapturedAgent {
  readonly agent: AgentName;
  readonly sizes: readonly string[];
  readonly screenShowsStreaming: boolean;
  readonly titleShowsWorking: boolean;
}

const CAPTURED_AGENTS: readonly CapturedAgent[] = [
  { agent: 'claude', sizes: ANY_SIZE, screenShowsStreaming: true, titleShowsWorking: true },
  { agent: 'codex', sizes: ANY_SIZE, screenShowsStreaming: false, titleShowsWorking: true },
  { agent: 'gemini', sizes: TWO_SIZES, screenShowsStreaming: true, titleShowsWorking: true },
  { agent: 'opencode', sizes: TWO_SIZES, screenShowsStreaming: true, titleShowsWorking: false },
];

/** The size in a fixture's file name (`permission-bash-80x24.txt`); unsuffixed ones are 120x40. */
function sizeOf(name: string): string {
  return /-(\d+x\d+)\.txt$/.exec(name)?.[1] ?? '120x40';
}

/** The screen a fixture shows, whatever its size. */
function screenOf(name: string): string {
  return name.replace(/(-\d+x\d+)?\.txt$/, '');
}

/** Screens captured once, across a resize, rather than at every size. */
const RESIZED = /^resized-/;

describe.each(CAPTURED_AGENTS)(
  'the captured $agent fixtures',
  ({ agent, sizes, screenShowsStreaming, titleShowsWorking }) => {
    const fixtures = captured(agent);
    const set = findSet(bundled, agent)!;

    it('exist for every state the rule set can produce, including skip', () => {
      const states = new Set([...fixtures.values()].map((fixture) => fixture.expect));
      expect([...states].sort()).toEqual(['blocked', 'idle', 'skip', 'working']);
    });

    it('cover every screen at every capture size', () => {
      const names = [...fixtures.keys()].filter((name) => !RESIZED.test(name));
      expect([...new Set(names.map(sizeOf))].sort()).toEqual([...sizes].sort());
      const screens = [...new Set(names.map(screenOf))].sort();
      for (const size of sizes) {
        const atSize = names.filter((name) => sizeOf(name) === size).map(screenOf);
        expect([size, atSize.sort()]).toEqual([size, screens]);
      }
    });

    it('each name the rule that must decide them', () => {
      const unnamed = [...fixtures]
        .filter(([, fixture]) => fixture.matched === undefined)
        .map(([name]) => name);
      expect(unnamed).toEqual([]);
    });

    it('were captured from the installed agent release the rule set names', () => {
      const installed = findInstalledAgent(agent);
      const versions = new Set([...fixtures.values()].map((fixture) => fixture.agentVersion));
      expect([...versions]).toEqual([set.agentVersion]);
      if (!('missing' in installed)) expect(set.agentVersion).toBe(installed.version);
    });

    // The title is the strongest working signal, but each state must still be readable from the
    // screen: a title can lag, and a user's terminal may rewrite it. Codex is the exception while a
    // reply streams, when nothing on its screen says it is working.
    it.each([...fixtures.keys()].filter((name) => screenShowsStreaming || !name.includes('streaming')))(
      '%s keeps its state with the title removed',
      (name) => {
        const fixture = fixtures.get(name)!;
        expect(evaluate(set, screenOnly(fixture)).state).toBe(fixture.expect);
      },
    );

    const working = [...fixtures.keys()].filter((name) => fixtures.get(name)!.expect === 'working');
    // OpenCode's title names the session only, so its title alone must not claim a state.
    const fromTitle = titleShowsWorking ? 'working' : 'idle';
    it.each(working)(`%s is ${fromTitle} from its title alone`, (name) => {
      expect(evaluate(set, titleOnly(fixtures.get(name)!)).state).toBe(fromTitle);
    });
  },
);

it.each([...captured('codex').keys()].filter((name) => name.startsWith('permission-')))(
  "Codex's %s is blocked from its Action Required title alone",
  (name) => {
    const codex = findSet(bundled, 'codex')!;
    expect(evaluate(codex, titleOnly(captured('codex').get(name)!)).state).toBe('blocked');
  },
);

// The activity line can scroll out of bottom_non_empty(12) (a long task list under it); the footer
// under the prompt box still says a turn is running.
it.each([...captured('claude').keys()].filter((name) => name.startsWith('working-')))(
  "Claude's %s is working from the footer alone when the activity line is out of reach",
  (name) => {
    const claude = findSet(bundled, 'claude')!;
    const fixture = captured('claude').get(name)!;
    const withoutActivity = fixture.lines.filter((line) => !/^[·✢✳✶✻✽*] \S[^…]*…/u.test(line));
    expect(withoutActivity.length).toBeLessThan(fixture.lines.length);
    const verdict = evaluate(claude, new StaticScreenView({ lines: withoutActivity, title: '' }));
    expect([verdict.state, verdict.rule]).toEqual(['working', 'interrupt_footer']);
  },
);

function screenOnly(fixture: Fixture): StaticScreenView {
  return new StaticScreenView({ lines: fixture.lines, title: '' });
}

function titleOnly(fixture: Fixture): StaticScreenView {
  return new StaticScreenView({ lines: [], title: fixture.title });
}
