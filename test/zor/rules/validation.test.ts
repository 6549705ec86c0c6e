// seed 003 §2 "Load-time validation": each failure names the file, the rule and the problem.
import { RULE_SET_LIMITS } from '../../../src/zor/rules/compile';
import { parseRuleSet } from '../../../src/zor/rules/load';
import { RuleFileError } from '../../../src/zor/rules/rule-file-error';

const HEADER = 'id = "agent"\nversion = "1"\n';

function problemsOf(toml: string): string[] {
  try {
    parseRuleSet(toml, 'rules/agent.toml');
  } catch (error) {
    if (error instanceof RuleFileError) {
      expect(error.message.split('\n').every((line) => line.startsWith('rules/agent.toml: '))).toBe(true);
      return [...error.problems];
    }
    throw error;
  }
  throw new Error('the rule file loaded');
}

function rule(body: string, id = 'r'): string {
  return `[[rules]]\nid = "${id}"\n${body}\n`;
}

describe('rule file validation', () => {
  it('loads a valid file and fills the defaults', () => {
    const set = parseRuleSet(HEADER + rule('state = "idle"\ncontains = ["x"]'), 'a.toml');
    expect(set.rules[0]).toMatchObject({ priority: 0, region: { kind: 'whole' } });
    expect(set.processNames).toEqual(['agent']);
    expect(set.source).toBe('a.toml');
  });

  it('defaults process_names to the id and the aliases', () => {
    const set = parseRuleSet(HEADER + 'aliases = ["ag", "a2"]\n', 'a.toml');
    expect(set.processNames).toEqual(['agent', 'ag', 'a2']);
  });

  it('reports TOML syntax errors with line and column', () => {
    expect(problemsOf(HEADER + 'rules = [\n')[0]).toMatch(/^line 4, column \d+: /);
  });

  it('rejects an unknown key in a rule, naming the rule', () => {
    expect(problemsOf(HEADER + rule('state = "idle"\nrgex = ["x"]', 'prompt'))).toEqual([
      'rule "prompt" (rules[0]): unknown key "rgex"',
    ]);
  });

  it('rejects an unknown key at the top level and inside a nested gate', () => {
    expect(problemsOf(HEADER + 'colour = "red"\n')).toEqual(['unknown key "colour"']);
    expect(problemsOf(HEADER + rule('state = "idle"\nall = [{ contain = ["x"] }]', 'g'))).toEqual([
      'rule "g" (rules[0]), all[0]: unknown key "contain"',
    ]);
  });

  it('rejects a missing id or version, a bad state and a fractional priority', () => {
    expect(problemsOf('version = "1"\n').join()).toMatch(/id/);
    expect(problemsOf('id = "a"\n').join()).toMatch(/version/);
    expect(problemsOf(HEADER + rule('state = "busy"\ncontains = ["x"]', 's'))[0]).toMatch(
      /^rule "s" \(rules\[0\]\), state: /,
    );
    expect(problemsOf(HEADER + rule('state = "idle"\npriority = 1.5\ncontains = ["x"]', 'p'))[0]).toMatch(
      /^rule "p" \(rules\[0\]\), priority: /,
    );
  });

  it('rejects duplicate rule ids', () => {
    const toml =
      HEADER +
      rule('state = "idle"\ncontains = ["a"]', 'same') +
      rule('state = "idle"\ncontains = ["b"]', 'same');
    expect(problemsOf(toml)).toEqual([
      'rule "same" (rules[1]), id: the id is already used by an earlier rule',
    ]);
  });

  it('rejects a regex that does not compile', () => {
    const [problem] = problemsOf(HEADER + rule('state = "idle"\nregex = ["ok", "(unclosed"]', 'bad'));
    expect(problem).toMatch(/^rule "bad" \(rules\[0\]\), regex\[1\]: regex "\(unclosed" does not compile/);
  });

  it('rejects an unknown region and a region that needs a prompt marker', () => {
    expect(problemsOf(HEADER + rule('state = "idle"\nregion = "middle"\ncontains = ["x"]', 'm'))[0]).toMatch(
      /^rule "m" \(rules\[0\]\), region: unknown region "middle"/,
    );
    expect(
      problemsOf(HEADER + rule('state = "idle"\nregion = "whole_unless_at_prompt"\ncontains = ["x"]', 'w')),
    ).toEqual([`rule "w" (rules[0]), region: region "whole_unless_at_prompt" needs the set's prompt_marker`]);
  });

  it('rejects a positive gate with no matcher, or with only not', () => {
    expect(problemsOf(HEADER + rule('state = "idle"', 'empty'))[0]).toMatch(
      /^rule "empty" \(rules\[0\]\): the gate has no matcher/,
    );
    expect(problemsOf(HEADER + rule('state = "idle"\nnot = [{ contains = ["x"] }]', 'neg'))[0]).toMatch(
      /only `not`/,
    );
    expect(
      problemsOf(HEADER + rule('state = "idle"\nany = [{ contains = ["x"] }, {}]', 'anyempty'))[0],
    ).toMatch(/^rule "anyempty" \(rules\[0\]\), any\[1\]: the gate has no matcher/);
  });

  it('rejects a not gate with no matcher', () => {
    expect(problemsOf(HEADER + rule('state = "idle"\ncontains = ["x"]\nnot = [{}]', 'n'))).toEqual([
      'rule "n" (rules[0]), not[0]: a `not` gate with no matcher would veto every screen; give it a matcher',
    ]);
  });

  it('rejects an empty matcher', () => {
    expect(problemsOf(HEADER + rule('state = "idle"\ncontains = [""]', 'e'))).toEqual([
      'rule "e" (rules[0]), contains[0]: an empty matcher matches everything; remove it',
    ]);
  });

  it('rejects flags on the wrong state and any flag on a skip rule', () => {
    expect(
      problemsOf(HEADER + rule('state = "working"\nvisible_idle = true\ncontains = ["x"]', 'f')),
    ).toEqual(['rule "f" (rules[0]), visible_idle: only a idle rule can carry it, not a working one']);
    expect(
      problemsOf(HEADER + rule('state = "idle"\nvisible_blocker = true\ncontains = ["x"]', 'g'))[0],
    ).toMatch(/visible_blocker: only a blocked rule/);
    expect(
      problemsOf(HEADER + rule('state = "blocked"\nvisible_working = true\ncontains = ["x"]', 'h'))[0],
    ).toMatch(/visible_working: only a working rule/);
    expect(problemsOf(HEADER + rule('state = "skip"\nvisible_idle = true\ncontains = ["x"]', 'k'))).toEqual([
      'rule "k" (rules[0]), visible_idle: a skip rule carries no flags',
    ]);
  });

  it('rejects block_markers without a prompt_marker, and the reserved rule id none', () => {
    expect(problemsOf(HEADER + 'block_markers = ["•"]\n')[0]).toMatch(/block_markers only mean something/);
    expect(problemsOf(HEADER + rule('state = "idle"\ncontains = ["x"]', 'none'))[0]).toMatch(/reserved/);
  });

  it(`allows ${RULE_SET_LIMITS.rules} rules and rejects one more`, () => {
    const rules = (count: number) =>
      Array.from({ length: count }, (_, index) => rule('state = "idle"\ncontains = ["x"]', `r${index}`)).join(
        '',
      );
    expect(() => parseRuleSet(HEADER + rules(RULE_SET_LIMITS.rules), 'a.toml')).not.toThrow();
    expect(problemsOf(HEADER + rules(RULE_SET_LIMITS.rules + 1))).toContain(
      '129 rules; a set has at most 128',
    );
  });

  it('rejects more than 32 matchers in one gate, naming the rule', () => {
    const needles = Array.from({ length: 33 }, (_, index) => `"n${index}"`).join(', ');
    expect(problemsOf(HEADER + rule(`state = "idle"\ncontains = [${needles}]`, 'wide'))).toEqual([
      'rule "wide" (rules[0]): 33 matchers in one gate; at most 32',
    ]);
  });

  it('rejects a matcher longer than 512 characters', () => {
    expect(problemsOf(HEADER + rule(`state = "idle"\ncontains = ["${'x'.repeat(513)}"]`, 'long'))).toEqual([
      'rule "long" (rules[0]), contains[0]: matcher is 513 characters; at most 512',
    ]);
  });

  it('rejects gates nested deeper than 8 levels', () => {
    let gate = '{ contains = ["x"] }';
    for (let level = 0; level < 7; level++) gate = `{ all = [${gate}] }`;
    // The rule is depth 1; its all member is depth 2, so 7 wraps reach depth 9.
    expect(problemsOf(HEADER + rule(`state = "idle"\nall = [${gate}]`, 'deep'))).toEqual([
      `rule "deep" (rules[0]), ${Array(8).fill('all[0]').join('.')}: gates nest deeper than 8 levels`,
    ]);
  });

  it('accepts gates nested exactly 8 levels deep', () => {
    let gate = '{ contains = ["x"] }';
    for (let level = 0; level < 6; level++) gate = `{ all = [${gate}] }`;
    expect(() =>
      parseRuleSet(HEADER + rule(`state = "idle"\nall = [${gate}]`, 'deep'), 'a.toml'),
    ).not.toThrow();
  });

  it('rejects a set over the gate and matcher totals', () => {
    const many = (count: number) =>
      `[${Array.from({ length: count }, () => '{ contains = ["a", "b", "c", "d", "e"] }').join(', ')}]`;
    const rules = Array.from({ length: 40 }, (_, index) =>
      rule(`state = "idle"\nany = ${many(15)}`, `r${index}`),
    ).join('');
    const problems = problemsOf(HEADER + rules);
    expect(problems).toContain('640 gates in the set; at most 512');
    expect(problems).toContain('3000 matchers in the set; at most 1024');
  });

  it('reports every problem in the file at once', () => {
    const toml =
      HEADER +
      rule('state = "idle"\nregex = ["("]', 'one') +
      rule('state = "working"\nvisible_idle = true\ncontains = ["x"]', 'two');
    expect(problemsOf(toml)).toHaveLength(2);
  });
});
