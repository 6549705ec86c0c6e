/**
 * The prompt a blocked agent shows, read from the screen with its rule set's `answers`: which
 * blocked rule wins now, and the numbered options drawn for it. Pure: a rule set and a screen in,
 * the options (or why there are none) out.
 */
import { evaluate } from '../rules/evaluate';
import { RegionReader } from '../rules/region-text';
import type { CompiledAnswers, RuleSet } from '../rules/rule-set';
import type { ScreenView } from '../screen/screen-view';

export interface PromptOption {
  /** As drawn: `2` for "2. Yes, and don't ask again…". */
  readonly number: number;
  /** The option's text on its first line, as drawn. */
  readonly label: string;
  /** The option the cursor is on. */
  readonly cursor: boolean;
}

export interface VisiblePrompt {
  /** The blocked rule that recognised the prompt. */
  readonly rule: string;
  readonly options: readonly PromptOption[];
  readonly answers: CompiledAnswers;
}

export type PromptReading =
  | { readonly ok: true; readonly prompt: VisiblePrompt }
  /** The screen's verdict is not a blocked one: no prompt is up (any more). */
  | { readonly ok: false; readonly reason: 'not-blocked'; readonly state: string }
  /** A blocked rule wins, but the set does not say how its prompt is answered. */
  | { readonly ok: false; readonly reason: 'no-answers'; readonly rule: string }
  /** The set says how, but no option line is on screen. */
  | { readonly ok: false; readonly reason: 'no-options'; readonly rule: string };

/**
 * The options of the prompt in `lines`: runs of option lines numbered 1, 2, 3… (other lines, such
 * as a description or a wrapped label, may sit between them); a `1.` starts a new run. The prompt
 * is drawn last, so the last run wins, the last one with the cursor on it when the set knows the
 * cursor (a numbered list in the transcript above has none).
 */
export function parseOptions(lines: readonly string[], answers: CompiledAnswers): PromptOption[] {
  const runs: PromptOption[][] = [];
  for (const line of lines) {
    const groups = answers.option.exec(line)?.groups;
    const number = Number(groups?.number);
    const label = groups?.label?.trim();
    if (!Number.isInteger(number) || label === undefined || label === '') continue;
    const option = { number, label, cursor: answers.cursor?.test(line) ?? false };
    const run = runs.at(-1);
    if (number === 1) runs.push([option]);
    else if (run !== undefined && run.at(-1)!.number === number - 1) run.push(option);
  }
  const withCursor = runs.filter((run) => run.some((option) => option.cursor));
  return (answers.cursor !== undefined && withCursor.length > 0 ? withCursor : runs).at(-1) ?? [];
}

export function readPrompt(set: RuleSet, view: ScreenView): PromptReading {
  const verdict = evaluate(set, view);
  if (verdict.state !== 'blocked' || verdict.rule === undefined)
    return { ok: false, reason: 'not-blocked', state: verdict.state };
  const rule = verdict.rule;
  const answers = set.answers.find((entry) => entry.rules.includes(rule));
  if (answers === undefined) return { ok: false, reason: 'no-answers', rule };
  const options = parseOptions(new RegionReader(view, set).read(answers.region).lines, answers);
  if (options.length === 0) return { ok: false, reason: 'no-options', rule };
  return { ok: true, prompt: { rule, options, answers } };
}
