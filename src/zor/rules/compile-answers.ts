/**
 * Compiles a rule set's `answers` entries (how its blocked prompts are answered), checking what zod
 * cannot: the region parses, the patterns compile, the option pattern names its layout's groups
 * (`number` and `label` in a list, `row` in a row), every rule named is a blocked rule of the set and is named by one entry only,
 * `arrows` in a list has a cursor to move from, and a row is read the way rows are (no cursor
 * pattern, no digits: its selection is read from the styles).
 */
import { parseRegion, REGIONS_NEEDING_PROMPT_MARKER, type Region } from './region';
import { compilePattern } from './pattern';
import type { StyleFlag } from '../screen/screen-view';
import type { CompiledAnswers, CompiledRule } from './rule-set';
import type { AnswersInput } from './schema';

/** The groups an option pattern must capture, by layout. */
const OPTION_GROUPS = { list: ['number', 'label'], row: ['row'] } as const;

/** What marks a row's selected label unless the entry says: the common ways a TUI highlights one. */
const DEFAULT_SELECTED: readonly StyleFlag[] = ['inverse', 'background'];

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

    const { layout } = entry;
    let option = pattern('option', entry.option);
    if (option !== undefined) {
      const names = groupNames(option);
      for (const group of OPTION_GROUPS[layout])
        if (!names.includes(group)) add('option', `the pattern has no group (?<${group}>…)`);
      // The row's column on the line locates each label's cells among the styles.
      if (layout === 'row') option = new RegExp(option.source, `${option.flags}d`);
    }
    const cursor = pattern('cursor', entry.cursor);
    if (layout === 'list') {
      if (entry.select === 'arrows' && entry.cursor === undefined)
        add('select', '"arrows" moves from the option under the cursor; give a cursor pattern');
      if (entry.selected !== undefined)
        add('selected', 'only a row reads its selection from styles; a list has a cursor pattern');
    } else {
      if (entry.select === 'digit') add('select', 'a row has no numbers to type; use "arrows" (Left/Right)');
      if (entry.cursor !== undefined)
        add('cursor', "a row's selected option is read from its styles (`selected`), not a pattern");
    }
    const confirm = entry.confirm.flatMap((step, at) => {
      const label = pattern(`confirm[${at}].label`, step.label);
      return label === undefined ? [] : [{ label, keys: step.keys }];
    });

    return {
      rules: entry.rules,
      region,
      layout,
      // Only reached without a pattern when a problem was added, and then the set is not loaded.
      option: option ?? /(?!)/u,
      cursor,
      select: entry.select,
      selected: entry.selected ?? DEFAULT_SELECTED,
      yes: pattern('yes', entry.yes),
      always: pattern('always', entry.always),
      no: pattern('no', entry.no),
      confirm,
    };
  });
}
