// `fux answer`'s pure part: the options of the blocked prompt read from the real captures in
// fixtures/ with the bundled rule sets' `answers`, which option yes/no/always/N picks, and the keys.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerKeys, parseChoice, pickOption } from '../../../src/zor/answer/choice';
import { readPrompt, type VisiblePrompt } from '../../../src/zor/answer/visible-prompt';
import { fixtureScreen } from '../../../src/zor/fixture/check-fixture';
import { parseFixture } from '../../../src/zor/fixture/fixture';
import { findSet } from '../../../src/zor/rules/rule-set';
import { loadRuleDirectories } from '../../../src/zor/rules/sources';
import { REPO } from '../support/paths';

const sets = loadRuleDirectories([{ dir: join(REPO, 'rules'), origin: 'flag' }]).sets.map((e) => e.set);

/** Captures of Claude Code 2.1.197 at 29 columns (`npm run capture -- --size 29x20`), beside fixtures/. */
const NARROW = join(REPO, 'test', 'zor', 'answer', 'narrow');

function reading(agent: string, name: string, dir = join(REPO, 'fixtures', agent)) {
  const file = join(dir, `${name}.txt`);
  const fixture = parseFixture(readFileSync(file, 'utf8'), file);
  const set = findSet(sets, agent);
  if (set === undefined) throw new Error(`no rule set ${agent}`);
  return readPrompt(set, fixtureScreen(fixture));
}

function prompt(agent: string, name: string, dir?: string): VisiblePrompt {
  const r = reading(agent, name, dir);
  if (!r.ok) throw new Error(`${agent}/${name}: no prompt (${r.reason})`);
  return r.prompt;
}

const labels = (p: VisiblePrompt) => p.options.map((o) => `${o.cursor ? '>' : ' '}${o.number}. ${o.label}`);

function picked(p: VisiblePrompt, choice: string): string {
  const parsed = parseChoice(choice);
  if (parsed === undefined) throw new Error(`not a choice: ${choice}`);
  const r = pickOption(p, parsed);
  return 'option' in r ? `${r.option.number}` : r.problem;
}

/** Which option each choice picks, in order. */
const picks = (p: VisiblePrompt, ...choices: string[]) => choices.map((choice) => picked(p, choice));

describe('the options of a Claude Code prompt', () => {
  it.each(['permission-bash', 'permission-bash-80x24'])('%s: yes, always, no and N', (name) => {
    const p = prompt('claude', name);
    expect(p.rule).toBe('permission_dialog');
    expect(labels(p)).toEqual([
      '>1. Yes',
      ' 2. Yes, and always allow access to project/ from this project',
      ' 3. No',
    ]);
    expect(picks(p, 'yes', 'always', 'no', '2')).toEqual(['1', '2', '3', '2']);
  });

  it.each([
    ['permission-bash-60x20', undefined],
    ['permission-bash-29x20', NARROW],
  ])('%s: a label wrapped in a narrow pane is read whole', (name, dir) => {
    const p = prompt('claude', name, dir);
    expect(labels(p)).toEqual([
      '>1. Yes',
      ' 2. Yes, and always allow access to project/ from this project',
      ' 3. No',
    ]);
    expect(picks(p, 'yes', 'always', 'no', '3')).toEqual(['1', '2', '3', '3']);
  });

  it.each([
    ['permission-write-60x20', undefined],
    ['permission-write-29x20', NARROW],
  ])('%s: "2.Yes, allow all edits", drawn without its space and wrapped, is option 2', (name, dir) => {
    const p = prompt('claude', name, dir);
    expect(labels(p)).toEqual([
      '>1. Yes',
      ' 2. Yes, allow all edits during this session (shift+tab)',
      ' 3. No',
    ]);
    expect(picks(p, 'yes', 'always', 'no')).toEqual(['1', '2', '3']);
  });

  it('question-select-29x20: a description under a short label is not part of it', () => {
    const p = prompt('claude', 'question-select-29x20', NARROW);
    expect(labels(p)).toEqual(['>1. Red', ' 2. Blue', ' 3. Type something.', ' 4. Chat about this']);
  });

  it('a file write: always is "allow all edits during this session"', () => {
    const p = prompt('claude', 'permission-write');
    expect(labels(p)).toEqual([
      '>1. Yes',
      ' 2. Yes, allow all edits during this session (shift+tab)',
      ' 3. No',
    ]);
    expect(picks(p, 'yes', 'always', 'no')).toEqual(['1', '2', '3']);
  });

  it('the question tool: its options across the rule, none of them a yes', () => {
    const p = prompt('claude', 'question-select');
    expect(p.rule).toBe('confirm_dialog');
    expect(labels(p)).toEqual(['>1. Red', ' 2. Blue', ' 3. Type something.', ' 4. Chat about this']);
    expect(picked(p, '2')).toBe('2');
    expect(picked(p, 'yes')).toBe(
      'the prompt has no "yes" option; the options on screen: 1. Red · 2. Blue · 3. Type something. · 4. Chat about this',
    );
  });

  it('the plan approval has yes and no but no always', () => {
    const p = prompt('claude', 'plan-approval-80x24');
    expect(p.rule).toBe('choice_list');
    expect(labels(p)).toEqual(['>1. Yes', ' 2. No']);
    expect(picks(p, 'yes', 'no')).toEqual(['1', '2']);
    expect(picked(p, 'always')).toMatch(
      /^the prompt has no "always" option; the options on screen: 1\. Yes · 2\. No$/,
    );
  });

  it('the API-key dialog with the cursor on No', () => {
    const p = prompt('claude', 'startup-api-key');
    expect(labels(p)).toEqual([' 1. Yes', '>2. No (recommended)']);
    expect(picked(p, 'yes')).toBe('1');
  });

  it('the trust dialog: yes is "Yes, I trust this folder"', () => {
    const p = prompt('claude', 'startup-trust-80x24');
    expect(labels(p)).toEqual(['>1. Yes, I trust this folder', ' 2. No, exit']);
    expect(picks(p, 'yes', 'no')).toEqual(['1', '2']);
  });

  it('the option is chosen by typing its digit', () => {
    const p = prompt('claude', 'permission-bash');
    expect(answerKeys(p, p.options[2]!)).toEqual({ keys: ['3'] });
  });
});

describe('the options of a Codex prompt', () => {
  it.each(['permission-command', 'permission-command-80x24'])('%s: yes, always, no', (name) => {
    const p = prompt('codex', name);
    expect(p.rule).toBe('approval_prompt');
    expect(p.options.map((o) => o.number)).toEqual([1, 2, 3]);
    expect(p.options[0]).toEqual({ number: 1, label: 'Yes, proceed (y)', cursor: true });
    // At 80 columns the second label wraps; its first line is the label.
    expect(p.options[1]!.label).toMatch(
      /^Yes, and don't ask again for commands that start with `touch made-by-/,
    );
    expect(p.options[2]!.label).toBe('No, and tell Codex what to do differently (esc)');
    expect(picks(p, 'yes', 'always', 'no')).toEqual(['1', '2', '3']);
    expect(answerKeys(p, p.options[1]!)).toEqual({ keys: ['2'] });
  });

  it('a file edit', () => {
    const p = prompt('codex', 'permission-write');
    expect(labels(p)).toEqual([
      '>1. Yes, proceed (y)',
      " 2. Yes, and don't ask again for these files (a)",
      ' 3. No, and tell Codex what to do differently (esc)',
    ]);
  });

  it('the trust prompt: numbers only', () => {
    const p = prompt('codex', 'startup-trust');
    expect(p.rule).toBe('choice_dialog');
    expect(labels(p)).toEqual(['>1. Trust and continue', ' 2. Back to Agent Command Center']);
    expect(picked(p, '1')).toBe('1');
    expect(picked(p, '3')).toBe(
      'the prompt has no option 3; the options on screen: 1. Trust and continue · 2. Back to Agent Command Center',
    );
  });
});

describe('the options of a Gemini CLI prompt', () => {
  // Each screen's rule, its options as read inside the box, and what yes, always and no pick.
  const ALLOW = ['>1. Allow once', ' 2. Allow for this session'];
  const NO = 'No, suggest changes (esc)';
  const TRUST = ['>1. Trust folder (project)', ' 2. Trust parent folder (trust)', " 3. Don't trust"];
  const NO_ALWAYS =
    'the prompt has no "always" option; the options on screen: 1. Trust folder (project) · 2. Trust parent folder (trust) · 3. Don\'t trust';
  it.each([
    ['permission-command', 'permission_dialog', [...ALLOW, ` 3. ${NO}`], ['1', '2', '3']],
    ['permission-command-80x24', 'permission_dialog', [...ALLOW, ` 3. ${NO}`], ['1', '2', '3']],
    [
      'permission-write',
      'permission_dialog',
      [...ALLOW, ' 3. Modify with external editor', ` 4. ${NO}`],
      ['1', '2', '4'],
    ],
    [
      'permission-write-80x24',
      'permission_dialog',
      [...ALLOW, ' 3. Modify with external editor', ` 4. ${NO}`],
      ['1', '2', '4'],
    ],
    ['startup-trust', 'choice_dialog', TRUST, ['1', NO_ALWAYS, '3']],
    ['startup-trust-80x24', 'choice_dialog', TRUST, ['1', NO_ALWAYS, '3']],
  ])('%s: %s, yes, always and no', (name, rule, options, yesAlwaysNo) => {
    const p = prompt('gemini', name);
    expect([p.rule, labels(p), picks(p, 'yes', 'always', 'no')]).toEqual([rule, options, yesAlwaysNo]);
  });

  it('the option is chosen by moving the cursor from 1 and pressing Enter', () => {
    const p = prompt('gemini', 'permission-write');
    expect(answerKeys(p, p.options[0]!)).toEqual({ keys: ['Enter'] });
    expect(answerKeys(p, p.options[3]!)).toEqual({ keys: ['Down', 'Down', 'Down', 'Enter'] });
  });
});

describe('an OpenCode prompt', () => {
  // A row of buttons whose selection is drawn only by a background colour: the fixtures carry the
  // screen's styles (their `attrs` header), and the selected button is read from them.
  const BUTTONS = ['Allow once', 'Allow always', 'Reject'];
  const row = (selected: number) =>
    BUTTONS.map((label, i) => `${i + 1 === selected ? '>' : ' '}${i + 1}. ${label}`);

  it.each([
    ['permission-command', 1],
    ['permission-command-80x24', 1],
    ['permission-write', 1],
    ['permission-write-80x24', 1],
    ['permission-reject-selected', 3],
    ['permission-reject-selected-80x24', 3],
  ])('%s: the buttons, the selected one (%i) and yes, always, no', (name, selected) => {
    const p = prompt('opencode', name);
    expect([p.rule, labels(p), picks(p, 'yes', 'always', 'no', '2')]).toEqual([
      'permission_prompt',
      row(selected),
      ['1', '2', '3', '2'],
    ]);
  });

  it('walks Right or Left from the selected button; "Allow always" is confirmed with a second Enter', () => {
    const first = prompt('opencode', 'permission-command');
    const last = prompt('opencode', 'permission-reject-selected-80x24');
    const keys = (p: VisiblePrompt, n: number) => answerKeys(p, p.options[n - 1]!);
    expect([keys(first, 1), keys(first, 2), keys(first, 3)]).toEqual([
      { keys: ['Enter'] },
      { keys: ['Right', 'Enter', 'Enter'] },
      { keys: ['Right', 'Right', 'Enter'] },
    ]);
    expect([keys(last, 1), keys(last, 2), keys(last, 3)]).toEqual([
      { keys: ['Left', 'Left', 'Enter'] },
      { keys: ['Left', 'Enter', 'Enter'] },
      { keys: ['Enter'] },
    ]);
  });

  it.each(['permission-always-confirm', 'permission-always-confirm-80x24'])(
    '%s: the "Always allow" confirmation, Confirm selected, has yes and no',
    (name) => {
      const p = prompt('opencode', name);
      expect([p.rule, labels(p), picks(p, 'yes', 'no')]).toEqual([
        'always_confirm',
        ['>1. Confirm', ' 2. Cancel'],
        ['1', '2'],
      ]);
      expect(answerKeys(p, p.options[1]!)).toEqual({ keys: ['Right', 'Enter'] });
      expect(picked(p, 'always')).toBe(
        'the prompt has no "always" option; the options on screen: 1. Confirm · 2. Cancel',
      );
    },
  );

  it('without styles (a fixture captured before attrs) the buttons are read but none is selected', () => {
    const file = join(REPO, 'fixtures', 'opencode', 'permission-command.txt');
    const text = readFileSync(file, 'utf8').replace(/^# attrs: .*\n/m, '');
    const fixture = parseFixture(text, file);
    const r = readPrompt(findSet(sets, 'opencode')!, fixtureScreen(fixture));
    if (!r.ok) throw new Error(r.reason);
    expect(labels(r.prompt)).toEqual(row(0));
    expect(answerKeys(r.prompt, r.prompt.options[0]!)).toEqual({
      problem: 'no option is drawn selected (or more than one is), so arrows cannot reach one',
    });
  });
});

describe('a screen with no prompt to answer', () => {
  it.each([
    ['claude', 'idle-after-reply', 'idle'],
    ['claude', 'working-tool', 'working'],
    ['claude', 'guard-typed-question', 'idle'],
    ['codex', 'guard-typed-question', 'idle'],
    ['codex', 'working-streaming', 'working'],
    ['claude', 'model-picker', 'skip'],
    ['gemini', 'model-picker', 'skip'],
    ['gemini', 'idle-after-reply', 'idle'],
    ['gemini', 'working-tool', 'working'],
    ['gemini', 'guard-typed-question', 'idle'],
    ['opencode', 'guard-typed-question', 'idle'],
    ['opencode', 'model-picker', 'skip'],
    ['opencode', 'working-tool', 'working'],
  ])('%s/%s is not blocked (%s)', (agent, name, state) => {
    expect(reading(agent, name)).toEqual({ ok: false, reason: 'not-blocked', state });
  });
});

describe('choices', () => {
  it.each([
    ['yes', 'yes'],
    ['no', 'no'],
    ['always', 'always'],
    ['1', 1],
    ['12', 12],
  ])('%s is a choice', (text, choice) => expect(parseChoice(text)).toBe(choice));

  it.each(['', 'YES', 'y', '0', '100', '1.', 'never', ' yes'])('%j is not a choice', (text) =>
    expect(parseChoice(text)).toBeUndefined(),
  );
});
