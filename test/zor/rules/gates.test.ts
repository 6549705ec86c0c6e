// seed 001 "Gates" and seed 003 §2: each gate part, conjunction, any, not, nesting.
import { evaluate } from '../../../src/zor/rules/evaluate';
import { ruleSet, screen } from '../support/rules';

/** Whether a single working rule with this gate matches the screen. */
function matches(gateToml: string, lines: readonly string[]): boolean {
  const set = ruleSet(`[[rules]]\nid = "r"\nstate = "working"\n${gateToml}`);
  return evaluate(set, screen(lines)).rule === 'r';
}

describe('contains', () => {
  it('matches a substring case-insensitively, whatever the case of the needle', () => {
    expect(matches('contains = ["ESC to Interrupt"]', ['✻ Thinking… (esc to interrupt)'])).toBe(true);
    expect(matches('contains = ["thinking"]', ['✻ THINKING…'])).toBe(true);
  });

  it('needs every needle', () => {
    expect(matches('contains = ["esc", "interrupt"]', ['esc to interrupt'])).toBe(true);
    expect(matches('contains = ["esc", "cancel"]', ['esc to interrupt'])).toBe(false);
  });
});

describe('regex and line_regex', () => {
  it('regex matches the whole region text and can span lines', () => {
    expect(matches(String.raw`regex = ['Do you want\?\n\s*1\. Yes']`, ['Do you want?', '  1. Yes'])).toBe(
      true,
    );
  });

  it('regex anchors ^ and $ at line edges', () => {
    expect(matches(String.raw`regex = ['^\s*2\. No$']`, ['Do you want?', '  2. No'])).toBe(true);
  });

  it('regex is case-sensitive unless it starts with (?i)', () => {
    expect(matches("regex = ['^yes']", ['Yes'])).toBe(false);
    expect(matches("regex = ['(?i)^yes']", ['Yes'])).toBe(true);
  });

  it('regex can anchor at the very start of the text', () => {
    expect(matches(String.raw`regex = ['(?<![\s\S])first']`, ['first', 'second'])).toBe(true);
    expect(matches(String.raw`regex = ['(?<![\s\S])second']`, ['first', 'second'])).toBe(false);
  });

  it('line_regex needs one line to match each pattern, where regex may cross lines', () => {
    const lines = ['Allow command?', '1. Yes'];
    expect(matches(String.raw`regex = ['\?\n1\.']`, lines)).toBe(true);
    expect(matches(String.raw`line_regex = ['\?\n1\.']`, lines)).toBe(false);
    expect(matches(String.raw`line_regex = ['\?$', '^1\. Yes$']`, lines)).toBe(true);
  });

  it('needs every pattern of each kind', () => {
    expect(matches("regex = ['a', 'zzz']", ['abc'])).toBe(false);
    expect(matches("line_regex = ['a', 'zzz']", ['abc'])).toBe(false);
  });
});

describe('conjunction and nesting', () => {
  it('needs every part of a gate to hold', () => {
    const gate = `contains = ["proceed"]\nline_regex = ['^\\s*1\\. Yes']`;
    expect(matches(gate, ['Do you want to proceed?', ' 1. Yes'])).toBe(true);
    expect(matches(gate, ['Do you want to proceed?'])).toBe(false);
    expect(matches(gate, [' 1. Yes'])).toBe(false);
  });

  it('any is a disjunction: one member suffices', () => {
    const gate = 'any = [{ contains = ["enter to confirm"] }, { contains = ["enter to select"] }]';
    expect(matches(gate, ['enter to select'])).toBe(true);
    expect(matches(gate, ['enter to confirm'])).toBe(true);
    expect(matches(gate, ['enter to continue'])).toBe(false);
  });

  it('not is a guard: any matching member vetoes', () => {
    const gate = 'contains = ["❯"]\nnot = [{ contains = ["do you want"] }, { contains = ["esc to cancel"] }]';
    expect(matches(gate, ['❯ hello'])).toBe(true);
    expect(matches(gate, ['❯ do you want to proceed?'])).toBe(false);
    expect(matches(gate, ['❯ x', 'esc to cancel'])).toBe(false);
  });

  it('all needs every member, and gates nest', () => {
    const gate = [
      'all = [',
      '  { contains = ["esc to cancel"] },',
      '  { any = [{ contains = ["enter to confirm"] }, { all = [{ contains = ["select"] }], not = [{ contains = ["nope"] }] }] },',
      ']',
    ].join('\n');
    expect(matches(gate, ['esc to cancel · enter to confirm'])).toBe(true);
    expect(matches(gate, ['esc to cancel · select'])).toBe(true);
    expect(matches(gate, ['esc to cancel · select nope'])).toBe(false);
    expect(matches(gate, ['select'])).toBe(false);
  });

  it('sub-gates read the same region as their rule', () => {
    const set = ruleSet(
      '[[rules]]\nid = "r"\nstate = "working"\nregion = "bottom(1)"\nall = [{ contains = ["top"] }]',
    );
    expect(evaluate(set, screen(['top', 'bottom'])).rule).toBeUndefined();
    expect(evaluate(set, screen(['bottom', 'top'])).rule).toBe('r');
  });
});
