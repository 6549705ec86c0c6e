/**
 * Compiles a rule set's `answers` entries (how its blocked prompts are answered), checking what zod
 * cannot: the region parses, the patterns compile, the option pattern names the `number` and
 * `label` groups, every rule named is a blocked rule of the set and is named by one entry only,
 * and `arrows` has a cursor to move from.
 */
import { parseRegion, REGIONS_NEEDING_PROMPT_MARKER, type Region } from './region';
import { compilePattern } from './pattern';
import type { CompiledAnswers, CompiledRule } from './rule-set';
import type { AnswersInput } from './schema';

/** The groups an option pattern must capture. */
const OPTION_GROUPS = ['number', 'label'] as const;

/** The named groups a pattern declares: matched against nothing through an empty alternative. */
function groupNames(pattern: RegExp): string[] {
  const probe = new RegExp(`${pattern.source}|`, pattern.flags).exec('');
  return Object.keys(probe?.groups ?? {});
}

export function compileAnswers(
  entries: readonly AnswersInput[],
  rules: readonly CompiledRule[],
  promptMarker: string | undefined,
  problems: string[],
): CompiledAnswers[] {
  const claimed = new Map<string, number>();
  return entries.map((entry, index) => {
    const label = `answers[${index}]`;
    const add = (where: string, problem: string) => problems.push(`${label}, ${where}: ${problem}`);
    const pattern = (where: string, source: string | undefined): RegExp | undefined => {
      if (source === undefined) return undefined;
      if (source.length === 0) {
        add(where, 'an empty pattern matches everything; remove it');
        return undefined;
      }
      const compiled = compilePattern(source);
      if (compiled instanceof RegExp) return compiled;
      add(where, compiled.problem);
      return undefined;
    };

    for (const id of entry.rules) {
      const rule = rules.find((r) => r.id === id);
      if (rule === undefined) add('rules', `no rule "${id}" in the set`);
      else if (rule.state !== 'blocked')
        add('rules', `rule "${id}" is ${rule.state}; only a blocked rule has a prompt`);
      const earlier = claimed.get(id);
      if (earlier !== undefined) add('rules', `rule "${id}" is already answered by answers[${earlier}]`);
      else claimed.set(id, index);
    }

    let region: Region = { kind: 'whole' };
    const parsed = parseRegion(entry.region);
    if ('problem' in parsed) add('region', parsed.problem);
    else if (REGIONS_NEEDING_PROMPT_MARKER.includes(parsed.kind) && promptMarker === undefined)
      add('region', `region "${entry.region}" needs the set's prompt_marker`);
    else region = parsed;

    const option = pattern('option', entry.option);
    if (option !== undefined) {
      const names = groupNames(option);
      for (const group of OPTION_GROUPS)
        if (!names.includes(group)) add('option', `the pattern has no group (?<${group}>…)`);
    }
    const cursor = pattern('cursor', entry.cursor);
    if (entry.select === 'arrows' && entry.cursor === undefined)
      add('select', '"arrows" moves from the option under the cursor; give a cursor pattern');

    return {
      rules: entry.rules,
      region,
      // Only reached without a pattern when a problem was added, and then the set is not loaded.
      option: option ?? /(?!)/u,
      cursor,
      select: entry.select,
      yes: pattern('yes', entry.yes),
      always: pattern('always', entry.always),
      no: pattern('no', entry.no),
    };
  });
}
