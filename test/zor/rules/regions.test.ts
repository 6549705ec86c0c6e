// seed 001 "Rules: regions" and seed 003 §2: every region on a hand-written screen.
import { parseRegion, formatRegion, type Region } from '../../../src/zor/rules/region';
import { RegionReader, type PromptMarkers } from '../../../src/zor/rules/region-text';
import { screen } from '../support/rules';

const NO_MARKERS: PromptMarkers = { promptMarker: undefined, blockMarkers: [] };

function read(region: string, lines: readonly string[], markers = NO_MARKERS, extra = {}) {
  const parsed = parseRegion(region);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return new RegionReader(screen(lines, extra), markers).read(parsed);
}

const RULE = '─'.repeat(30);

describe('region names', () => {
  it.each(['whole', 'bottom(12)', 'bottom_non_empty(3)', 'top_non_empty(20)', 'prompt_box', 'title'])(
    'parses and formats %s unchanged',
    (text) => {
      const region = parseRegion(text) as Region;
      expect(formatRegion(region)).toBe(text);
    },
  );

  it.each(['bottom', 'bottom(0)', 'bottom(1001)', 'bottom( 3)', 'middle', 'prompt_box(2)', 'title(1)'])(
    'rejects %s with a reason',
    (text) => {
      expect(parseRegion(text)).toHaveProperty('problem');
    },
  );
});

describe('title and progress regions', () => {
  it('title is the title as one line, or no line when unset', () => {
    expect(read('title', ['x'], NO_MARKERS, { title: '✳ Claude' }).text).toBe('✳ Claude\n');
    expect(read('title', ['x']).lines).toEqual([]);
  });

  it('progress is STATE:PERCENT, or no line before the first report', () => {
    expect(read('progress', [], NO_MARKERS, { progress: { state: 3, percent: 0 } }).lines).toEqual(['3:0']);
    expect(read('progress', [], NO_MARKERS, { progress: { state: 1, percent: 42 } }).lines).toEqual(['1:42']);
    expect(read('progress', []).text).toBe('');
  });
});

describe('line-counting regions', () => {
  const lines = ['first', '', 'second', 'third', '', 'fourth'];

  it('whole is every line, each ended with a newline', () => {
    expect(read('whole', lines).text).toBe('first\n\nsecond\nthird\n\nfourth\n');
  });

  it('bottom(n) is the last n lines, blanks included', () => {
    expect(read('bottom(2)', lines).lines).toEqual(['', 'fourth']);
    expect(read('bottom(50)', lines).lines).toEqual(lines);
  });

  it('bottom_non_empty(n) runs from the n-th non-empty line from the bottom, keeping the blank between', () => {
    expect(read('bottom_non_empty(3)', lines).lines).toEqual(['second', 'third', '', 'fourth']);
    expect(read('bottom_non_empty(1)', lines).lines).toEqual(['fourth']);
  });

  it('bottom_non_empty(n) is the whole text when there are fewer non-empty lines', () => {
    expect(read('bottom_non_empty(9)', lines).lines).toEqual(lines);
  });

  it('top_non_empty(n) runs from the start through the n-th non-empty line', () => {
    expect(read('top_non_empty(2)', lines).lines).toEqual(['first', '', 'second']);
    expect(read('top_non_empty(9)', lines).lines).toEqual(lines);
  });
});

describe('prompt box regions', () => {
  it('with no rule: no box, above is everything, nothing after a rule', () => {
    const lines = ['talk', '> prompt'];
    expect(read('prompt_box', lines).lines).toEqual([]);
    expect(read('above_prompt_box', lines).lines).toEqual(lines);
    expect(read('last_line_above_prompt_box', lines).lines).toEqual(['> prompt']);
    expect(read('after_last_rule', lines).lines).toEqual([]);
  });

  it('with one rule: still no box, and after_last_rule is what follows it', () => {
    const lines = ['talk', RULE, '> prompt', 'footer'];
    expect(read('prompt_box', lines).lines).toEqual([]);
    expect(read('above_prompt_box', lines).lines).toEqual(lines);
    expect(read('after_last_rule', lines).lines).toEqual(['> prompt', 'footer']);
  });

  it('with two rules: the box is strictly between them', () => {
    const lines = ['answer', '', RULE, '❯ typed', '  more', RULE, '  ? for shortcuts'];
    expect(read('prompt_box', lines).lines).toEqual(['❯ typed', '  more']);
    expect(read('above_prompt_box', lines).lines).toEqual(['answer', '']);
    expect(read('last_line_above_prompt_box', lines).lines).toEqual(['answer']);
    expect(read('after_last_rule', lines).lines).toEqual(['  ? for shortcuts']);
  });

  it('with three rules: the box is between the last two', () => {
    const lines = ['dialog', RULE, 'middle', RULE, '❯ ', RULE];
    expect(read('prompt_box', lines).lines).toEqual(['❯']);
    expect(read('above_prompt_box', lines).lines).toEqual(['dialog', RULE, 'middle']);
    expect(read('last_line_above_prompt_box', lines).lines).toEqual(['middle']);
    expect(read('after_last_rule', lines).lines).toEqual([]);
  });

  it('last_line_above_prompt_box is empty when only blank lines are above the box', () => {
    expect(read('last_line_above_prompt_box', ['', RULE, 'x', RULE]).lines).toEqual([]);
  });
});

describe('prompt marker regions', () => {
  const markers: PromptMarkers = { promptMarker: '›', blockMarkers: ['•', '■'] };

  it('after_last_prompt_marker is what follows the last marker line', () => {
    const lines = ['› first', 'reply', '›', 'tail', '›not a marker line'];
    expect(read('after_last_prompt_marker', lines, markers).lines).toEqual(['tail', '›not a marker line']);
  });

  it('after_last_prompt_marker is empty without a marker line', () => {
    expect(read('after_last_prompt_marker', ['plain', ' › indented'], markers).lines).toEqual([]);
  });

  it('whole_unless_at_prompt is empty at the prompt', () => {
    const lines = ['• earlier answer', '› ask something', '  hint'];
    expect(read('whole_unless_at_prompt', lines, markers).text).toBe('');
  });

  it('whole_unless_at_prompt is the whole text once a block marker follows the prompt', () => {
    const lines = ['› ask something', '• Working on it', '  hint'];
    expect(read('whole_unless_at_prompt', lines, markers).lines).toEqual(lines);
  });

  it('whole_unless_at_prompt is the whole text when no prompt line is on screen', () => {
    expect(read('whole_unless_at_prompt', ['a', 'b'], markers).lines).toEqual(['a', 'b']);
  });
});
