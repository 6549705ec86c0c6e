// The `answers` section of a rule file: what it checks at load, and how a prompt is read and
// answered with it on screens made to show one thing each (the captured screens are in
// prompt-answers.test.ts).
import { answerKeys, pickOption } from '../../../src/zor/answer/choice';
import { readPrompt, type VisiblePrompt } from '../../../src/zor/answer/visible-prompt';
import { parseRuleSet } from '../../../src/zor/rules/load';
import { RuleFileError } from '../../../src/zor/rules/rule-file-error';
import { StaticScreenView } from '../../../src/zor/screen/static-screen-view';
import type { StyleFlag, StyleSpan } from '../../../src/zor/screen/screen-view';
import { screen } from '../support/rules';

const SET = `id = "agent"
version = "1"

[[rules]]
id = "ask"
state = "blocked"
visible_blocker = true
contains = ["continue?"]

[[rules]]
id = "busy"
state = "working"
contains = ["busy"]
`;

const ANSWERS = `
[[answers]]
rules = ["ask"]
option = '^\\s*(?:> )?(?<number>\\d+)\\) (?<label>.+)$'
cursor = '^\\s*> '
select = "arrows"
yes = '^Yes'
always = '^Yes, always'
no = '^No'
`;

function problemsOf(toml: string): string[] {
  try {
    parseRuleSet(toml, 'rules/agent.toml');
  } catch (error) {
    if (error instanceof RuleFileError) return [...error.problems];
    throw error;
  }
  throw new Error('the rule file loaded');
}

function promptOn(lines: string[], toml = SET + ANSWERS): VisiblePrompt {
  const r = readPrompt(parseRuleSet(toml, 'agent.toml'), screen(lines));
  if (!r.ok) throw new Error(`no prompt: ${r.reason}`);
  return r.prompt;
}

describe('the answers section', () => {
  it('loads with the region defaulting to the whole window', () => {
    const set = parseRuleSet(SET + ANSWERS, 'agent.toml');
    expect(set.answers).toHaveLength(1);
    expect(set.answers[0]).toMatchObject({ rules: ['ask'], region: { kind: 'whole' }, select: 'arrows' });
  });

  it('is optional: a set without it loads with no answers', () => {
    expect(parseRuleSet(SET, 'agent.toml').answers).toEqual([]);
  });

  it('names every problem: unknown and non-blocked rules, groups, patterns, the cursor, the region', () => {
    const toml = `${SET}
[[answers]]
rules = ["nope", "busy"]
region = "bottom(0)"
option = '^(?<n>\\d+)\\. (.+)$'
select = "arrows"
yes = '(unclosed'
`;
    expect(problemsOf(toml)).toEqual([
      'answers[0], rules: no rule "nope" in the set',
      'answers[0], rules: rule "busy" is working; only a blocked rule has a prompt',
      expect.stringMatching(/^answers\[0\], region: /),
      'answers[0], option: the pattern has no group (?<number>…)',
      'answers[0], option: the pattern has no group (?<label>…)',
      'answers[0], select: "arrows" moves from the option under the cursor; give a cursor pattern',
      expect.stringMatching(/^answers\[0\], yes: regex "\(unclosed" does not compile/),
    ]);
  });

  it('refuses a rule answered twice, an unknown key and an unknown select', () => {
    expect(problemsOf(SET + ANSWERS + ANSWERS)).toEqual([
      'answers[1], rules: rule "ask" is already answered by answers[0]',
    ]);
    expect(
      problemsOf(`${SET}[[answers]]\nrules = ["ask"]\noption = "x"\nselect = "mouse"\nkeys = 1\n`),
    ).toEqual([expect.stringMatching(/^answers\[0\]\.select: /), 'answers[0]: unknown key "keys"']);
  });
});

describe('reading and answering a prompt', () => {
  const ask = [
    'Step 2 of the plan:',
    '1) build',
    '2) test',
    'continue?',
    '  1) Yes',
    '> 2) Yes, always',
    '  3) No',
  ];

  it('takes the last numbered run with the cursor, not a numbered list above it', () => {
    const p = promptOn(ask);
    expect(p.options).toEqual([
      { number: 1, label: 'Yes', cursor: false },
      { number: 2, label: 'Yes, always', cursor: true },
      { number: 3, label: 'No', cursor: false },
    ]);
  });

  it('moves the cursor with arrows, then Enter', () => {
    const p = promptOn(ask);
    const keys = (n: number) => answerKeys(p, p.options[n - 1]!);
    expect([keys(1), keys(2), keys(3)]).toEqual([
      { keys: ['Up', 'Enter'] },
      { keys: ['Enter'] },
      { keys: ['Down', 'Enter'] },
    ]);
  });

  it('yes is the plain accept, never the always option before it', () => {
    const p = promptOn(['continue?', '> 1) Yes, always', '  2) Yes', '  3) No']);
    expect(pickOption(p, 'yes')).toEqual({ option: { number: 2, label: 'Yes', cursor: false } });
  });

  it('arrows cannot answer when the cursor is on no option', () => {
    const p = promptOn(['continue?', '  1) Yes', '  2) No']);
    expect(answerKeys(p, p.options[0]!)).toEqual({
      problem: 'the cursor is on none of the options, so arrows cannot reach one',
    });
  });

  it('a digit prompt types the number, up to 9', () => {
    const toml = SET + ANSWERS.replace('select = "arrows"', 'select = "digit"');
    const lines = [
      'continue?',
      ...Array.from({ length: 10 }, (_, i) => `${i === 0 ? '> ' : '  '}${i + 1}) Option ${i + 1}`),
    ];
    const p = promptOn(lines, toml);
    expect(answerKeys(p, p.options[8]!)).toEqual({ keys: ['9'] });
    expect(answerKeys(p, p.options[9]!)).toEqual({ problem: 'option 10 has no single digit to type' });
  });

  it('says why there is nothing to answer', () => {
    const set = parseRuleSet(SET + ANSWERS, 'agent.toml');
    expect(readPrompt(set, screen(['busy']))).toEqual({ ok: false, reason: 'not-blocked', state: 'working' });
    expect(readPrompt(set, screen(['continue?']))).toEqual({ ok: false, reason: 'no-options', rule: 'ask' });
    expect(readPrompt(parseRuleSet(SET, 'agent.toml'), screen(ask))).toEqual({
      ok: false,
      reason: 'no-answers',
      rule: 'ask',
    });
  });
});

describe('a row of buttons (layout = "row")', () => {
  const ROW = `
[[answers]]
rules = ["ask"]
layout = "row"
option = '^\\s*\\|\\s+(?<row>Allow\\s{2,}.*Deny)(?:\\s|$)'
select = "arrows"
yes = '^Allow$'
always = '^Always allow$'
no = '^Deny$'
confirm = [{ label = '^Always', keys = ["Enter"] }]
`;
  // Columns: "Allow" 2-7, "Always allow" 10-22, "Deny" 25-29 (end exclusive).
  const line = '| Allow   Always allow   Deny     enter confirm';
  const lines = ['continue?', 'Allow   Always allow   Deny', line];
  const on = (from: number, to: number, flags: StyleFlag[] = ['background']): StyleSpan => ({
    line: 2,
    from,
    to,
    flags,
  });
  const promptWith = (styles: StyleSpan[], toml = SET + ROW): VisiblePrompt => {
    const r = readPrompt(parseRuleSet(toml, 'agent.toml'), new StaticScreenView({ lines, styles }));
    if (!r.ok) throw new Error(`no prompt: ${r.reason}`);
    return r.prompt;
  };

  it('splits the row group at runs of two or more spaces and finds the selection by its styles', () => {
    // The bar's own cell is styled too; it is outside every label.
    const p = promptWith([on(0, 1), on(9, 23)]);
    expect(p.options).toEqual([
      { number: 1, label: 'Allow', cursor: false },
      { number: 2, label: 'Always allow', cursor: true },
      { number: 3, label: 'Deny', cursor: false },
    ]);
  });

  it('walks Left or Right straight from the selected label, then Enter, then the confirm step', () => {
    const p = promptWith([on(2, 7, ['inverse'])]);
    const keys = (n: number) => answerKeys(p, p.options[n - 1]!);
    expect([keys(1), keys(2), keys(3)]).toEqual([
      { keys: ['Enter'] },
      { keys: ['Right', 'Enter', 'Enter'] },
      { keys: ['Right', 'Right', 'Enter'] },
    ]);
    expect(answerKeys(promptWith([on(25, 29)]), p.options[0]!)).toEqual({ keys: ['Left', 'Left', 'Enter'] });
  });

  it('a label is selected only when all of it is styled, and only one may be', () => {
    const cursors = (styles: StyleSpan[]) => promptWith(styles).options.map((o) => o.cursor);
    expect(cursors([on(3, 7)])).toEqual([false, false, false]);
    expect(cursors([on(2, 7, ['bold']), on(25, 29)])).toEqual([false, false, true]);
    expect(cursors([on(2, 7), on(25, 29)])).toEqual([false, false, false]);
    expect(answerKeys(promptWith([]), { number: 1, label: 'Allow', cursor: false })).toEqual({
      problem: 'no option is drawn selected (or more than one is), so arrows cannot reach one',
    });
  });

  it('reads the selection from the styles its entry names', () => {
    const toml = SET + ROW.replace('select = "arrows"', 'select = "arrows"\nselected = ["bold"]');
    expect(promptWith([on(2, 7, ['bold'])], toml).options[0]).toMatchObject({ cursor: true });
    expect(promptWith([on(2, 7)], toml).options[0]).toMatchObject({ cursor: false });
  });

  it('refuses what a row cannot have: digits, a cursor pattern, no row group; and selected on a list', () => {
    const toml = `${SET}
[[answers]]
rules = ["ask"]
layout = "row"
option = '(?<label>x)'
cursor = '^>'
select = "digit"
confirm = [{ label = '(', keys = ["Enter"] }]

[[answers]]
rules = ["busy2"]
option = '(?<number>\\d) (?<label>x)'
select = "digit"
selected = ["bold"]
confirm = [{ label = 'x', keys = ["Enter key"] }]
`;
    expect(problemsOf(toml)).toEqual([expect.stringMatching(/^answers\[1\]\.confirm\[0\]\.keys\[0\]: /)]);
    expect(problemsOf(toml.replace(' key"', '"'))).toEqual([
      'answers[0], option: the pattern has no group (?<row>…)',
      'answers[0], select: a row has no numbers to type; use "arrows" (Left/Right)',
      "answers[0], cursor: a row's selected option is read from its styles (`selected`), not a pattern",
      expect.stringMatching(/^answers\[0\], confirm\[0\]\.label: regex "\(" does not compile/),
      'answers[1], rules: no rule "busy2" in the set',
      'answers[1], selected: only a row reads its selection from styles; a list has a cursor pattern',
    ]);
  });
});
