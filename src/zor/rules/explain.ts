/**
 * Why a verdict came out as it did: every rule, in evaluation order, with the text its region read
 * and which parts of its gate held. Slower than `evaluate` (nothing short-circuits) and meant for
 * people: `zor explain`.
 */
import type { ScreenView } from '../screen/screen-view';
import { evaluate, type Verdict } from './evaluate';
import { containsNeedle, gateMatches, lineRegexMatches, regexMatches } from './gate';
import { formatRegion } from './region';
import { RegionReader, type RegionText } from './region-text';
import type { CompiledGate, CompiledRule, RuleSet } from './rule-set';

export type MatcherKind = 'contains' | 'regex' | 'line_regex';

export interface MatcherTrace {
  readonly kind: MatcherKind;
  /** The needle (lowercased) or the pattern as `/source/flags`. */
  readonly matcher: string;
  readonly matched: boolean;
}

export interface GroupTrace {
  readonly kind: 'all' | 'any' | 'not';
  /** Whether this part held: all members, at least one, or none matched. */
  readonly matched: boolean;
  readonly members: readonly GateTrace[];
}

export interface GateTrace {
  readonly matched: boolean;
  readonly parts: readonly (MatcherTrace | GroupTrace)[];
}

export interface RuleExplanation {
  readonly rule: CompiledRule;
  readonly region: string;
  readonly regionText: RegionText;
  readonly gate: GateTrace;
  /** Whether this rule produced the verdict. */
  readonly winner: boolean;
}

export interface Explanation {
  readonly verdict: Verdict;
  readonly rules: readonly RuleExplanation[];
}

function patternText(pattern: RegExp): string {
  return `/${pattern.source}/${pattern.flags}`;
}

function traceGate(gate: CompiledGate, region: RegionText): GateTrace {
  const parts: (MatcherTrace | GroupTrace)[] = [
    ...gate.contains.map((needle) => ({
      kind: 'contains' as const,
      matcher: needle,
      matched: containsNeedle(region, needle),
    })),
    ...gate.regex.map((pattern) => ({
      kind: 'regex' as const,
      matcher: patternText(pattern),
      matched: regexMatches(region, pattern),
    })),
    ...gate.lineRegex.map((pattern) => ({
      kind: 'line_regex' as const,
      matcher: patternText(pattern),
      matched: lineRegexMatches(region, pattern),
    })),
  ];
  const group = (kind: 'all' | 'any' | 'not', members: readonly CompiledGate[]) => {
    if (members.length === 0) return;
    const traces = members.map((member) => traceGate(member, region));
    const matched =
      kind === 'all'
        ? traces.every((trace) => trace.matched)
        : kind === 'any'
          ? traces.some((trace) => trace.matched)
          : !traces.some((trace) => trace.matched);
    parts.push({ kind, matched, members: traces });
  };
  group('all', gate.all);
  group('any', gate.any);
  group('not', gate.not);
  return { matched: gateMatches(gate, region), parts };
}

export function explain(set: RuleSet, view: ScreenView): Explanation {
  const verdict = evaluate(set, view);
  const reader = new RegionReader(view, set);
  const rules = set.rulesByPriority.map((rule) => {
    const regionText = reader.read(rule.region);
    return {
      rule,
      region: formatRegion(rule.region),
      regionText,
      gate: traceGate(rule.gate, regionText),
      winner: rule.id === verdict.rule,
    };
  });
  return { verdict, rules };
}
