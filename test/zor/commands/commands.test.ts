// The zor commands' logic (seed 003 §7, §8): check, agents, explain, and the wrapper's argv split.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgents } from '../../../src/zor/cli/agents';
import { runCheck } from '../../../src/zor/cli/check';
import { runExplain } from '../../../src/zor/cli/explain';
import { splitWrapperArgv } from '../../../src/zor/cli/split-argv';
import { TEST_FIXTURES, TEST_RULES } from '../support/paths';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zor-commands-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An environment whose user rule directory is empty, so only --rules and the bundle count. */
const env = () => ({ XDG_CONFIG_HOME: join(dir, 'config') });
const fixture = (name: string) => join(TEST_FIXTURES, 'testagent', name);

function writeFixture(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('zor check', () => {
  it('prints the state and the rule id and exits 0 when the fixture agrees', () => {
    const out = runCheck({
      fixture: fixture('blocked-permission.txt'),
      agent: undefined,
      ruleDirs: [TEST_RULES],
      env: env(),
    });
    expect(out).toEqual({ stdout: ['blocked permission_prompt'], stderr: [], exitCode: 0 });
  });

  it('prints none for the idle fallback', () => {
    const out = runCheck({
      fixture: fixture('idle-fallback.txt'),
      agent: undefined,
      ruleDirs: [TEST_RULES],
      env: env(),
    });
    expect(out.stdout).toEqual(['idle none']);
  });

  it('exits 1 on a state mismatch, saying what was expected', () => {
    const path = writeFixture('wrong.txt', '# agent: testagent\n# expect: working\n⏺ Finished.\n');
    const out = runCheck({ fixture: path, agent: undefined, ruleDirs: [TEST_RULES], env: env() });
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toEqual(['idle none']);
    expect(out.stderr).toEqual([`${path}: expected state working, got idle`]);
  });

  it('exits 1 on a rule mismatch only when the fixture names one', () => {
    const named = writeFixture(
      'named.txt',
      '# agent: testagent\n# expect: idle\n# matched: title_idle\n⏺ x\n',
    );
    expect(runCheck({ fixture: named, agent: undefined, ruleDirs: [TEST_RULES], env: env() }).exitCode).toBe(
      1,
    );
    const unnamed = writeFixture('unnamed.txt', '# agent: testagent\n# expect: idle\n⏺ x\n');
    expect(
      runCheck({ fixture: unnamed, agent: undefined, ruleDirs: [TEST_RULES], env: env() }).exitCode,
    ).toBe(0);
  });

  it('uses --agent over the header, by id or alias', () => {
    const path = writeFixture('noagent.txt', '# expect: working\n✶ Busy…\n');
    expect(runCheck({ fixture: path, agent: 'ta', ruleDirs: [TEST_RULES], env: env() }).stdout).toEqual([
      'working activity_line',
    ]);
  });

  it('exits 2 with a way forward when there is no agent, an unknown agent or an unreadable fixture', () => {
    const path = writeFixture('noagent.txt', '# expect: idle\nx\n');
    const none = runCheck({ fixture: path, agent: undefined, ruleDirs: [TEST_RULES], env: env() });
    expect(none).toMatchObject({ exitCode: 2, stderr: [expect.stringContaining('pass --agent ID')] });
    const unknown = runCheck({ fixture: path, agent: 'nope', ruleDirs: [TEST_RULES], env: env() });
    expect(unknown.stderr.join()).toMatch(
      /no rule set "nope" \(loaded: .*testagent.*\); `zor agents` lists them/,
    );
    const missing = runCheck({
      fixture: join(dir, 'absent.txt'),
      agent: undefined,
      ruleDirs: [],
      env: env(),
    });
    expect(missing).toMatchObject({
      exitCode: 2,
      stderr: [expect.stringMatching(/absent\.txt: cannot read the fixture/)],
    });
  });

  it('reports a broken rule file and exits 2 even when the verdict agrees', () => {
    writeFileSync(join(dir, 'broken.toml'), 'id = "broken"\n');
    const out = runCheck({
      fixture: fixture('idle-fallback.txt'),
      agent: undefined,
      ruleDirs: [TEST_RULES, dir],
      env: env(),
    });
    expect(out.stdout).toEqual(['idle none']);
    expect(out.stderr.join('\n')).toMatch(/broken\.toml: .*version/);
    expect(out.exitCode).toBe(2);
  });
});

describe('zor agents', () => {
  it('lists ids, versions, rule counts and where each set came from', () => {
    const out = runAgents({ ruleDirs: [TEST_RULES], env: env() });
    expect(out.exitCode).toBe(0);
    expect(out.stdout[0]).toMatch(/^AGENT\s+VERSION\s+CAPTURED FROM\s+RULES\s+ORIGIN\s+FILE$/);
    const row = out.stdout.find((line) => line.startsWith('testagent'));
    expect(row).toMatch(/^testagent\s+1\s+0\.0\.1\s+10\s+flag\s+.*test\/zor\/data\/rules\/testagent\.toml$/);
  });

  it('shows which earlier set a later one replaced', () => {
    writeFileSync(join(dir, 'testagent.toml'), 'id = "testagent"\nversion = "2"\n');
    const out = runAgents({ ruleDirs: [TEST_RULES, dir], env: env() });
    const row = out.stdout.find((line) => line.startsWith('testagent'))!;
    expect(row).toMatch(
      /^testagent\s+2\s+-\s+0\s+flag\s+\S+testagent\.toml \(replaces flag:\S+data\/rules\/testagent\.toml\)$/,
    );
  });
});

describe('zor explain', () => {
  it('shows every rule in evaluation order with its region text and which gate parts held', () => {
    const out = runExplain({
      fixture: fixture('idle-question-typed.txt'),
      agent: undefined,
      ruleDirs: [TEST_RULES],
      env: env(),
    });
    expect(out.exitCode).toBe(0);
    const text = out.stdout.join('\n');
    expect(out.stdout[2]).toBe('verdict idle by title_idle');
    // The prompt-box rule read the box and was vetoed by its guard.
    expect(text).toMatch(
      / {3}\[950\] prompt_box_idle: idle, region prompt_box, no match\n {6}\| ❯ Do you want to proceed\? 1\. Yes 2\. No\n/,
    );
    expect(text).toMatch(/not: no\n\s+\[0\] yes\n\s+contains "do you want to proceed\?": yes/);
    // The permission rule had the question but not the corroborating numbered line.
    expect(text).toMatch(
      /\[980\] permission_prompt: blocked, region whole, no match[\s\S]*?contains "do you want to proceed\?": yes\n\s+line_regex \/\^\\s\*\(❯\\s\*\)\?1\\\. Yes\/mu: no/,
    );
    expect(text).toMatch(/=> \[250\] title_idle: idle, region title, MATCHES\n {6}\| ✳ Test Agent/);
    // Rules appear highest priority first.
    const order = out.stdout
      .filter((line) => /^(=>| \+| {2}) \[/.test(line))
      .map((line) => Number(/\[(-?\d+)\]/.exec(line)![1]));
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });

  it('marks a rule that matched but lost to a higher priority', () => {
    const path = writeFixture(
      'both.txt',
      '# agent: testagent\n# title: ⠋ busy\n# expect: working\n✶ Also busy…\n',
    );
    const text = runExplain({
      fixture: path,
      agent: undefined,
      ruleDirs: [TEST_RULES],
      env: env(),
    }).stdout.join('\n');
    expect(text).toMatch(/=> \[1100\] spinner_title/);
    expect(text).toMatch(/ \+ \[965\] activity_line/);
  });

  it('shows an empty region as (empty)', () => {
    const path = writeFixture('plain.txt', '# agent: testagent\n# expect: idle\nnothing\n');
    expect(
      runExplain({ fixture: path, agent: undefined, ruleDirs: [TEST_RULES], env: env() }).stdout.join('\n'),
    ).toMatch(/\[1100\] spinner_title: working, region title, no match\n {6}\| \(empty\)/);
  });
});

describe('splitting the wrapper argv', () => {
  const takesValue = (name: string) => ['events', 'title', 'rules', 'agent'].includes(name);

  it.each([
    [['--', 'claude', '--debug'], [], ['claude', '--debug']],
    [['claude', '--debug'], [], ['claude', '--debug']],
    [
      ['--debug', '--rules', 'dir', 'claude', '-p'],
      ['--debug', '--rules', 'dir'],
      ['claude', '-p'],
    ],
    [['--title=never', '--events', '-', '--', 'sh'], ['--title=never', '--events', '-'], ['sh']],
    [['--no-osc'], ['--no-osc'], []],
    [[], [], []],
  ])('splits %j into options %j and command %j', (argv, options, command) => {
    expect(splitWrapperArgv(argv, takesValue)).toEqual({ options, command });
  });
});
