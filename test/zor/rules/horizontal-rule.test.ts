// seed 001 "Rules": the horizontal-rule test.
import { isHorizontalRule } from '../../../src/zor/rules/horizontal-rule';

describe('isHorizontalRule', () => {
  it.each(['──', '─', '────────────────', '   ──────   ', '─── done', '───────── Plan ─'])(
    '"%s" is a rule',
    (line) => {
      expect(isHorizontalRule(line)).toBe(true);
    },
  );

  it.each(['---', '-----------', '── x', '─x', 'text ───', '', '   ', '━━━━', '═══'])(
    '"%s" is not a rule',
    (line) => {
      expect(isHorizontalRule(line)).toBe(false);
    },
  );
});
