// DESIGN.md §8 and docs/rules.md "Fixtures": the header format, and judging a fixture.
import { judgeFixture } from '../../src/zor/fixture/check-fixture';
import { FixtureError, formatFixture, parseFixture } from '../../src/zor/fixture/fixture';
import { ruleSet } from './support/rules';

describe('parseFixture', () => {
  it('reads the header keys and the body as the detection window', () => {
    const fixture = parseFixture(
      '# agent: claude\n# agent_version: 2.1.197\n# title: ✳ Claude Code\n# progress: 3:0\n# expect: working\n# matched: spinner\nline one   \n\nline three\n\n\n',
      'f.txt',
    );
    expect(fixture).toEqual({
      agent: 'claude',
      agentVersion: '2.1.197',
      title: '✳ Claude Code',
      progress: { state: 3, percent: 0 },
      expect: 'working',
      matched: 'spinner',
      lines: ['line one', '', 'line three'],
      styles: [],
    });
  });

  it('ignores unknown header keys and leaves matched and progress optional', () => {
    const fixture = parseFixture('# size: 80x24\n# expect: idle\n# note: typed by hand\n> hi\n', 'f.txt');
    expect(fixture.matched).toBeUndefined();
    expect(fixture.progress).toBeUndefined();
    expect(fixture.title).toBe('');
    expect(fixture.lines).toEqual(['> hi']);
  });

  it('starts the body at the first line that is not a header line', () => {
    const fixture = parseFixture('# expect: idle\n#no space: x\n# later: y\n', 'f.txt');
    expect(fixture.lines).toEqual(['#no space: x', '# later: y']);
  });

  it.each([
    ['no expect', '# agent: a\nbody\n', /no "# expect: STATE" header line/],
    ['a bad state', '# expect: busy\n', /"expect: busy" is not a state/],
    ['bad progress', '# expect: idle\n# progress: half\n', /"progress: half" is not STATE:PERCENT/],
    ['a repeated key', '# expect: idle\n# expect: working\n', /header key "expect" appears twice/],
  ])('rejects a fixture with %s, naming the file', (_, text, message) => {
    expect(() => parseFixture(text, 'dir/f.txt')).toThrow(FixtureError);
    expect(() => parseFixture(text, 'dir/f.txt')).toThrow(message);
    expect(() => parseFixture(text, 'dir/f.txt')).toThrow(/^dir\/f\.txt: /);
  });

  it('reads styled runs from the attrs header, numbering lines from the first body line', () => {
    const text =
      '# title:\n# expect: blocked\n# attrs: 2:1-6:background 2:8-10:bold+inverse\nAsk?\n Allow  No\n';
    expect(parseFixture(text, 'f.txt').styles).toEqual([
      { line: 1, from: 1, to: 6, flags: ['background'] },
      { line: 1, from: 8, to: 10, flags: ['bold', 'inverse'] },
    ]);
    expect(formatFixture(parseFixture(text, 'f.txt'))).toBe(text);
    expect(parseFixture('# expect: idle\nx\n', 'f.txt').styles).toEqual([]);
  });

  it.each(['2:1-6', '0:1-6:bold', '1:6-6:bold', '1:1-6:italic', '1:1-6:bold+'])(
    'rejects the attrs entry %s',
    (entry) => {
      expect(() => parseFixture(`# expect: idle\n# attrs: ${entry}\nx\n`, 'f.txt')).toThrow(
        `"attrs" entry "${entry}" is not LINE:FROM-TO:FLAGS`,
      );
    },
  );

  it('round-trips through formatFixture', () => {
    const text =
      '# agent: a\n# title:\n# progress: 1:5\n# expect: blocked\n# matched: ask\nDo it?\n 1. Yes\n';
    expect(formatFixture(parseFixture(text, 'f.txt'))).toBe(text);
  });
});

describe('judgeFixture', () => {
  const set = ruleSet('[[rules]]\nid = "ask"\nstate = "blocked"\ncontains = ["proceed?"]');

  it('passes when state and rule agree', () => {
    const judgement = judgeFixture(parseFixture('# expect: blocked\n# matched: ask\nproceed?\n', 'f'), set);
    expect(judgement.mismatches).toEqual([]);
    expect(judgement.matched).toBe('ask');
  });

  it('names none for the idle fallback', () => {
    const judgement = judgeFixture(parseFixture('# expect: idle\n# matched: none\nquiet\n', 'f'), set);
    expect(judgement).toMatchObject({ matched: 'none', mismatches: [] });
  });

  it('reports a wrong state and a wrong rule', () => {
    const judgement = judgeFixture(parseFixture('# expect: working\n# matched: spin\nproceed?\n', 'f'), set);
    expect(judgement.mismatches).toEqual([
      'expected state working, got blocked',
      'expected rule spin, got ask',
    ]);
  });

  it('judges the state alone when matched is absent', () => {
    expect(judgeFixture(parseFixture('# expect: blocked\nproceed?\n', 'f'), set).mismatches).toEqual([]);
  });
});
