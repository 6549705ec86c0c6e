/**
 * Turns a schema-valid rule file into a RuleSet, checking what zod cannot: regions parse, regexes
 * compile, every positive gate has something to match, flags sit on the state they describe, ids
 * are unique, and the set stays inside the limits (which bound evaluation cost per screen change).
 * Problems are collected, not thrown one at a time, so an author sees every mistake in one run.
 */
import type { VerdictState, VisibleFlags } from '../agent-state';
import { parseRegion, REGIONS_NEEDING_PROMPT_MARKER, type Region } from './region';
import { compileAnswers } from './compile-answers';
import { compilePattern } from './pattern';
import type { CompiledGate, CompiledRule, RuleSet } from './rule-set';
import type { GateInput, RuleInput, RuleSetInput } from './schema';

export const RULE_SET_LIMITS = {
  rules: 128,
  gates: 512,
  matchers: 1024,
  matchersPerGate: 32,
  matcherLength: 512,
  depth: 8,
} as const;

/** Which state each flag belongs to; a flag on any other state is a mistake. */
const FLAG_STATES: Record<keyof VisibleFlags, VerdictState> = {
  idle: 'idle',
  blocker: 'blocked',
  working: 'working',
};

interface Tally {
  gates: number;
  matchers: number;
}

/** Collects problems for one rule, each prefixed with where in the rule it is. */
class RuleProblems {
  constructor(
    private readonly label: string,
    private readonly sink: string[],
  ) {}

  add(where: string, problem: string): void {
    this.sink.push(`${this.label}${where === '' ? '' : `, ${where}`}: ${problem}`);
  }
}

function compileGate(
  gate: GateInput,
  where: string,
  depth: number,
  positive: boolean,
  problems: RuleProblems,
  tally: Tally,
): CompiledGate {
  tally.gates++;
  if (depth > RULE_SET_LIMITS.depth) {
    problems.add(where, `gates nest deeper than ${RULE_SET_LIMITS.depth} levels`);
  }
  const contains = gate.contains ?? [];
  const regexSources = gate.regex ?? [];
  const lineRegexSources = gate.line_regex ?? [];
  const direct = contains.length + regexSources.length + lineRegexSources.length;
  tally.matchers += direct;
  if (direct > RULE_SET_LIMITS.matchersPerGate) {
    problems.add(where, `${direct} matchers in one gate; at most ${RULE_SET_LIMITS.matchersPerGate}`);
  }
  const positiveParts = direct + (gate.all?.length ?? 0) + (gate.any?.length ?? 0);
  const anyParts = positiveParts + (gate.not?.length ?? 0);
  if (positive && positiveParts === 0) {
    problems.add(
      where,
      anyParts === 0
        ? 'the gate has no matcher, so it would match every screen; add contains, regex, line_regex, all or any'
        : 'the gate has only `not`, so it would match nearly every screen; add a positive matcher',
    );
  } else if (!positive && anyParts === 0) {
    problems.add(where, 'a `not` gate with no matcher would veto every screen; give it a matcher');
  }

  const checkMatcher = (kind: string, index: number, text: string): void => {
    const at = `${where === '' ? '' : `${where}.`}${kind}[${index}]`;
    if (text.length === 0) problems.add(at, 'an empty matcher matches everything; remove it');
    if (text.length > RULE_SET_LIMITS.matcherLength) {
      problems.add(at, `matcher is ${text.length} characters; at most ${RULE_SET_LIMITS.matcherLength}`);
    }
  };
  const compileAll = (kind: string, sources: readonly string[]): RegExp[] =>
    sources.flatMap((source, index) => {
      checkMatcher(kind, index, source);
      const compiled = compilePattern(source);
      if (compiled instanceof RegExp) return [compiled];
      problems.add(`${where === '' ? '' : `${where}.`}${kind}[${index}]`, compiled.problem);
      return [];
    });
  contains.forEach((needle, index) => checkMatcher('contains', index, needle));

  const subGates = (kind: 'all' | 'any' | 'not', members: readonly GateInput[] | undefined) =>
    (members ?? []).map((member, index) =>
      compileGate(
        member,
        `${where === '' ? '' : `${where}.`}${kind}[${index}]`,
        depth + 1,
        kind !== 'not',
        problems,
        tally,
      ),
    );

  return {
    contains: contains.map((needle) => needle.toLowerCase()),
    regex: compileAll('regex', regexSources),
    lineRegex: compileAll('line_regex', lineRegexSources),
    all: subGates('all', gate.all),
    any: subGates('any', gate.any),
    not: subGates('not', gate.not),
  };
}

function compileRule(rule: RuleInput, set: RuleSetInput, problems: RuleProblems, tally: Tally): CompiledRule {
  const parsed = parseRegion(rule.region);
  let region: Region = { kind: 'whole' };
  if ('problem' in parsed) {
    problems.add('region', parsed.problem);
  } else {
    region = parsed;
    if (REGIONS_NEEDING_PROMPT_MARKER.includes(region.kind) && set.prompt_marker === undefined) {
      problems.add('region', `region "${rule.region}" needs the set's prompt_marker`);
    }
  }
  const visible: VisibleFlags = {
    idle: rule.visible_idle,
    blocker: rule.visible_blocker,
    working: rule.visible_working,
  };
  for (const flag of ['idle', 'blocker', 'working'] as const) {
    if (!visible[flag]) continue;
    if (rule.state === 'skip') {
      problems.add(`visible_${flag}`, 'a skip rule carries no flags');
    } else if (rule.state !== FLAG_STATES[flag]) {
      problems.add(
        `visible_${flag}`,
        `only a ${FLAG_STATES[flag]} rule can carry it, not a ${rule.state} one`,
      );
    }
  }
  const gate = compileGate(rule, '', 1, true, problems, tally);
  return { id: rule.id, state: rule.state, priority: rule.priority, region, visible, gate };
}

/** Highest priority first; Array.prototype.sort is stable, so file order breaks ties. */
function byPriority(rules: readonly CompiledRule[]): CompiledRule[] {
  return [...rules].sort((a, b) => b.priority - a.priority);
}

export type CompileResult =
  { readonly ok: true; readonly set: RuleSet } | { readonly ok: false; readonly problems: readonly string[] };

export function compileRuleSet(input: RuleSetInput, source: string): CompileResult {
  const problems: string[] = [];
  const tally: Tally = { gates: 0, matchers: 0 };
  if (input.rules.length > RULE_SET_LIMITS.rules) {
    problems.push(`${input.rules.length} rules; a set has at most ${RULE_SET_LIMITS.rules}`);
  }
  if (input.block_markers.length > 0 && input.prompt_marker === undefined) {
    problems.push('block_markers only mean something with a prompt_marker; add one or remove them');
  }
  const seen = new Set<string>();
  const rules: CompiledRule[] = [];
  input.rules.forEach((rule, index) => {
    const label = `rule "${rule.id}" (rules[${index}])`;
    const ruleProblems = new RuleProblems(label, problems);
    if (seen.has(rule.id)) ruleProblems.add('id', 'the id is already used by an earlier rule');
    seen.add(rule.id);
    rules.push(compileRule(rule, input, ruleProblems, tally));
  });
  if (tally.gates > RULE_SET_LIMITS.gates) {
    problems.push(`${tally.gates} gates in the set; at most ${RULE_SET_LIMITS.gates}`);
  }
  if (tally.matchers > RULE_SET_LIMITS.matchers) {
    problems.push(`${tally.matchers} matchers in the set; at most ${RULE_SET_LIMITS.matchers}`);
  }
  const answers = compileAnswers(input.answers, rules, input.prompt_marker, problems);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    set: {
      id: input.id,
      version: input.version,
      agentVersion: input.agent_version,
      aliases: input.aliases,
      processNames: input.process_names ?? [input.id, ...input.aliases],
      promptMarker: input.prompt_marker,
      blockMarkers: input.block_markers,
      rules,
      rulesByPriority: byPriority(rules),
      answers,
      source,
    },
  };
}
