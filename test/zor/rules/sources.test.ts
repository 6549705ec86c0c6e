// seed 003 §7: bundled rules, then $XDG_CONFIG_HOME/zor/rules, then --rules; a later set with the
// same id replaces an earlier one.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundledRulesDir,
  loadRuleDirectories,
  loadRules,
  ruleDirectories,
} from '../../../src/zor/rules/sources';
import { REPO } from '../support/paths';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'zor-sources-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writeSet(dir: string, file: string, id: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, file),
    `id = "${id}"\nversion = "${version}"\n[[rules]]\nid = "r"\nstate = "working"\ncontains = ["x"]\n`,
  );
}

describe('rule sources', () => {
  it("finds the bundled rules in the package's rules directory", () => {
    expect(bundledRulesDir()).toBe(join(REPO, 'rules'));
  });

  it('searches bundled, then $XDG_CONFIG_HOME/zor/rules, then each --rules directory', () => {
    const dirs = ruleDirectories(['/a', '/b'], { XDG_CONFIG_HOME: '/cfg' });
    expect(dirs).toEqual([
      { dir: join(REPO, 'rules'), origin: 'bundled' },
      { dir: '/cfg/zor/rules', origin: 'user' },
      { dir: '/a', origin: 'flag' },
      { dir: '/b', origin: 'flag' },
    ]);
  });

  it('falls back to ~/.config when XDG_CONFIG_HOME is unset', () => {
    expect(ruleDirectories([], { HOME: '/home/u' })[1]!.dir).toMatch(/\.config\/zor\/rules$/);
  });

  it('lets a later set with the same id replace an earlier one entirely', () => {
    writeSet(join(root, 'user'), 'agent.toml', 'agent', 'user-1');
    writeSet(join(root, 'flag'), 'mine.toml', 'agent', 'flag-2');
    writeSet(join(root, 'flag'), 'other.toml', 'other', '1');
    const loaded = loadRuleDirectories([
      { dir: join(root, 'user'), origin: 'user' },
      { dir: join(root, 'flag'), origin: 'flag' },
    ]);
    expect(loaded.errors).toEqual([]);
    const agent = loaded.sets.find((entry) => entry.set.id === 'agent')!;
    expect(agent).toMatchObject({
      origin: 'flag',
      set: { version: 'flag-2', source: join(root, 'flag', 'mine.toml') },
    });
    expect(agent.replaced).toEqual([`user:${join(root, 'user', 'agent.toml')}`]);
    expect(loaded.sets.map((entry) => entry.set.id).sort()).toEqual(['agent', 'other']);
  });

  it('loads the files of a directory in name order, ignoring other files', () => {
    writeSet(root, 'b.toml', 'same', 'from-b');
    writeSet(root, 'a.toml', 'same', 'from-a');
    writeFileSync(join(root, 'README.md'), 'not a rule file');
    const loaded = loadRuleDirectories([{ dir: root, origin: 'flag' }]);
    expect(loaded.sets.map((entry) => entry.set.version)).toEqual(['from-b']);
  });

  it('keeps loading the other files when one is broken, and reports it', () => {
    writeSet(root, 'good.toml', 'good', '1');
    writeFileSync(join(root, 'bad.toml'), 'id = "bad"\n');
    const loaded = loadRuleDirectories([{ dir: root, origin: 'flag' }]);
    expect(loaded.sets.map((entry) => entry.set.id)).toEqual(['good']);
    expect(loaded.errors.map((error) => error.file)).toEqual([join(root, 'bad.toml')]);
  });

  it('reports a missing --rules directory but not a missing user directory', () => {
    const loaded = loadRules([join(root, 'nowhere')], { XDG_CONFIG_HOME: join(root, 'no-config') });
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]!.message).toMatch(/nowhere: cannot read the --rules directory/);
  });

  it('reads the user directory from XDG_CONFIG_HOME', () => {
    writeSet(join(root, 'zor', 'rules'), 'mine.toml', 'mine', '7');
    const loaded = loadRules([], { XDG_CONFIG_HOME: root });
    expect(loaded.sets.find((entry) => entry.set.id === 'mine')).toMatchObject({ origin: 'user' });
  });
});
