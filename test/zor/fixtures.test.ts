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
const CAPTURED_AGENTS: readonly AgentName[] = ['claude', 'codex'];
const SECOND_SIZE_SUFFIX = '-80x24.txt';

describe.each(CAPTURED_AGENTS)('the captured %s fixtures', (agent) => {
  const fixtures = captured(agent);
  const set = findSet(bundled, agent)!;

  it('exist for every state the rule set can produce, including skip', () => {
    const states = new Set([...fixtures.values()].map((fixture) => fixture.expect));
    expect([...states].sort()).toEqual(['blocked', 'idle', 'skip', 'working']);
  });

  it('cover every screen at both capture sizes', () => {
    const names = [...fixtures.keys()];
    const primary = names.filter((name) => !name.endsWith(SECOND_SIZE_SUFFIX));
    const second = names.filter((name) => name.endsWith(SECOND_SIZE_SUFFIX));
    expect(second.map((name) => name.replace(SECOND_SIZE_SUFFIX, '.txt')).sort()).toEqual(primary.sort());
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
  it.each(
    [...fixtures.keys()].filter((name) => !(agent === 'codex' && name.startsWith('working-streaming'))),
  )('%s keeps its state with the title removed', (name) => {
    const fixture = fixtures.get(name)!;
    expect(evaluate(set, screenOnly(fixture)).state).toBe(fixture.expect);
  });

  it.each([...fixtures.keys()].filter((name) => fixtures.get(name)!.expect === 'working'))(
    '%s is working from its title alone',
    (name) => {
      expect(evaluate(set, titleOnly(fixtures.get(name)!)).state).toBe('working');
    },
  );
});

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
