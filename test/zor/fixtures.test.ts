// seed 001 "Rule sets and fixtures": every fixture is evaluated and its verdict asserted; the
// bundled sets in rules/ against fixtures/, the engine's test set against test/zor/data/fixtures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeFixture } from '../../src/zor/fixture/check-fixture';
import { parseFixture } from '../../src/zor/fixture/fixture';
import { findSet } from '../../src/zor/rules/rule-set';
import { loadRuleDirectories } from '../../src/zor/rules/sources';
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

describe.each(suites)('fixtures against the $name', ({ rulesDir, fixtures }) => {
  const loaded = loadRuleDirectories([{ dir: rulesDir, origin: 'flag' }]);

  it('loads every rule file without errors', () => {
    expect(loaded.errors.map((error) => error.message)).toEqual([]);
  });

  it.each(fixtures.map((file) => [file.slice(REPO.length + 1), file]))(
    '%s gives its expected verdict',
    (_, file) => {
      const fixture = parseFixture(readFileSync(file, 'utf8'), file);
      const set =
        fixture.agent === undefined
          ? undefined
          : findSet(
              loaded.sets.map((entry) => entry.set),
              fixture.agent,
            );
      expect(set).toBeDefined();
      expect(judgeFixture(fixture, set!).mismatches).toEqual([]);
    },
  );
});
