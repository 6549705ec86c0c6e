/** `zor explain FIXTURE | --pane`: every rule, the text its region read, and which gate parts held. */
import { fixtureScreen } from '../fixture/check-fixture';
import type { Fixture } from '../fixture/fixture';
import {
  explain,
  type GateTrace,
  type MatcherTrace,
  type GroupTrace,
  type RuleExplanation,
} from '../rules/explain';
import type { RuleSet } from '../rules/rule-set';
import { EXIT_ERROR, type CommandOutput } from './command-output';
import { loadFixtureWithSet, type FixtureRequest } from './fixture-with-set';

/** How much of a region to show: enough to see why, short enough to scan. */
const EXCERPT_LINES = 6;
const EXCERPT_WIDTH = 100;

const yes = (matched: boolean) => (matched ? 'yes' : 'no');

function excerpt(lines: readonly string[]): string[] {
  if (lines.length === 0) return ['(empty)'];
  const shown =
    lines.length <= EXCERPT_LINES
      ? lines
      : [...lines.slice(0, 2), `… (${lines.length - 5} more lines)`, ...lines.slice(-3)];
  return shown.map((line) => {
    const characters = Array.from(line);
    return characters.length <= EXCERPT_WIDTH ? line : characters.slice(0, EXCERPT_WIDTH - 1).join('') + '…';
  });
}

function formatGate(trace: GateTrace, indent: string): string[] {
  return trace.parts.flatMap((part) => formatPart(part, indent));
}

function formatPart(part: MatcherTrace | GroupTrace, indent: string): string[] {
  if ('members' in part) {
    return [
      `${indent}${part.kind}: ${yes(part.matched)}`,
      ...part.members.flatMap((member, index) => [
        `${indent}  [${index}] ${yes(member.matched)}`,
        ...formatGate(member, `${indent}      `),
      ]),
    ];
  }
  const shown = part.kind === 'contains' ? JSON.stringify(part.matcher) : part.matcher;
  return [`${indent}${part.kind} ${shown}: ${yes(part.matched)}`];
}

function formatRule(explained: RuleExplanation): string[] {
  const { rule } = explained;
  const marker = explained.winner ? '=>' : explained.gate.matched ? ' +' : '  ';
  return [
    `${marker} [${rule.priority}] ${rule.id}: ${rule.state}, region ${explained.region}, ${explained.gate.matched ? 'MATCHES' : 'no match'}`,
    ...excerpt(explained.regionText.lines).map((line) => `      | ${line}`),
    ...formatGate(explained.gate, '      '),
  ];
}

export function formatExplanation(set: RuleSet, fixture: Fixture): string[] {
  const { verdict, rules } = explain(set, fixtureScreen(fixture));
  return [
    `agent ${set.id} ${set.version} (${set.source})`,
    `title ${JSON.stringify(fixture.title)}, progress ${fixture.progress === undefined ? 'none' : `${fixture.progress.state}:${fixture.progress.percent}`}`,
    `verdict ${verdict.state} by ${verdict.rule ?? 'none (no rule matched: the idle fallback)'}`,
    '',
    ...rules.flatMap((rule) => [...formatRule(rule), '']),
    '=> the winning rule; + a rule that matched but lost on priority or file order',
  ];
}

export type ExplainOptions = FixtureRequest;

export function runExplain(options: ExplainOptions): CommandOutput {
  const loaded = loadFixtureWithSet(options);
  if ('failure' in loaded) return loaded.failure;
  return {
    stdout: formatExplanation(loaded.set, loaded.fixture),
    stderr: loaded.problems,
    exitCode: loaded.problems.length > 0 ? EXIT_ERROR : 0,
  };
}
