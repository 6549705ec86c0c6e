// seed 001 "Rules: regions, gates, priorities" and seed 003 §2: priorities, ties, fallback, skip, flags.
import { evaluate } from '../../../src/zor/rules/evaluate';
import { ruleSet, screen } from '../support/rules';

const SET = ruleSet(`
[[rules]]
id = "low_working"
state = "working"
priority = 10
contains = ["busy"]

[[rules]]
id = "blocked_high"
state = "blocked"
priority = 980
visible_blocker = true
contains = ["allow?"]

[[rules]]
id = "tie_first"
state = "working"
priority = 500
contains = ["tie"]
visible_working = true

[[rules]]
id = "tie_second"
state = "blocked"
priority = 500
contains = ["tie"]

[[rules]]
id = "viewer"
state = "skip"
priority = 1000
contains = ["transcript"]

[[rules]]
id = "prompt"
state = "idle"
priority = 950
visible_idle = true
region = "bottom(1)"
regex = ['^> ']
`);

describe('evaluate', () => {
  it('picks the highest priority among matching rules, not the first in the file', () => {
    const verdict = evaluate(SET, screen(['busy', 'allow?']));
    expect(verdict).toMatchObject({ state: 'blocked', rule: 'blocked_high' });
  });

  it('breaks a priority tie in favour of the earlier rule in the file', () => {
    expect(evaluate(SET, screen(['tie'])).rule).toBe('tie_first');
  });

  it('falls back to plain idle with no flags and no rule when nothing matches', () => {
    const verdict = evaluate(SET, screen(['just text']));
    expect(verdict).toEqual({
      state: 'idle',
      rule: undefined,
      region: undefined,
      visible: { idle: false, blocker: false, working: false },
    });
  });

  it('returns skip as a verdict of its own when a skip rule wins', () => {
    expect(evaluate(SET, screen(['transcript', 'allow?']))).toMatchObject({ state: 'skip', rule: 'viewer' });
  });

  it("carries the winning rule's flags and only those", () => {
    expect(evaluate(SET, screen(['allow?'])).visible).toEqual({ idle: false, blocker: true, working: false });
    expect(evaluate(SET, screen(['busy'])).visible).toEqual({ idle: false, blocker: false, working: false });
    expect(evaluate(SET, screen(['x', '> hi'])).visible).toEqual({
      idle: true,
      blocker: false,
      working: false,
    });
  });

  it('reports the region of the winning rule', () => {
    expect(evaluate(SET, screen(['x', '> hi'])).region).toEqual({ kind: 'bottom', lines: 1 });
  });

  it('treats an empty screen as the idle fallback', () => {
    expect(evaluate(SET, screen([])).state).toBe('idle');
  });

  it('reads the title and progress regions', () => {
    const set = ruleSet(`
[[rules]]
id = "spinner_title"
state = "working"
region = "title"
regex = ['^[\\u2800-\\u28ff] ']

[[rules]]
id = "cleared"
state = "idle"
region = "progress"
regex = ['^0:0$']
`);
    expect(evaluate(set, screen([], { title: '⠋ Claude Code' })).rule).toBe('spinner_title');
    expect(
      evaluate(set, screen([], { title: '✳ Claude Code', progress: { state: 0, percent: 0 } })).rule,
    ).toBe('cleared');
  });
});
