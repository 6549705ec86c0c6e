import { parseRuleSet } from '../../../src/zor/rules/load';
import type { RuleSet } from '../../../src/zor/rules/rule-set';
import { StaticScreenView } from '../../../src/zor/screen/static-screen-view';
import type { Progress } from '../../../src/zor/screen/screen-view';

/** A rule set from TOML rules text, with the set header filled in. */
export function ruleSet(rulesToml: string, header = ''): RuleSet {
  return parseRuleSet(`id = "test"\nversion = "1"\n${header}\n${rulesToml}`, 'test.toml');
}

export function screen(lines: readonly string[], extra: { title?: string; progress?: Progress } = {}) {
  return new StaticScreenView({ lines, ...extra });
}
