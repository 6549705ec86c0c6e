/**
 * The prompt a blocked agent shows, read from the screen with its rule set's `answers`: which
 * blocked rule wins now, and the options drawn for it (numbered lines of a list, or the labels of
 * a row of buttons with the selected one told by its styles). Pure: a rule set and a screen in,
 * the options (or why there are none) out.
 */
import { evaluate } from '../rules/evaluate';
import { RegionReader } from '../rules/region-text';
import type { CompiledAnswers, RuleSet } from '../rules/rule-set';
import type { ScreenView, StyleFlag, StyleSpan } from '../screen/screen-view';

export interface PromptOption {
  /** As drawn: `2` for "2. Yes, and don't ask again…"; in a row, its place from the left (1, 2, 3…). */
  readonly number: number;
  /** The option's text as drawn, a label wrapped over several lines joined by single spaces. */
  readonly label: string;
  /** The option the cursor is on (in a row: the one drawn selected). */
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

/** An option being read: its text so far and its last line as drawn (a wrapped label continues it). */
interface DrawnOption {
  readonly number: number;
  label: string;
  readonly cursor: boolean;
  lastLine: string;
  /** Where its first line's text starts (the number, or the cursor before it). */
  readonly indent: number;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Whether `line` carries on the label of `option`, wrapped there by an agent drawing in a narrow
 * pane: indented past the option's start, and the option's last line so full that the line's
 * first word would not have fitted on it.
 */
function continues(option: DrawnOption, line: string, width: number): boolean {
  const text = line.trim();
  if (text === '' || indentOf(line) <= option.indent) return false;
  const firstWord = Array.from(text.split(/\s/, 1)[0]!).length;
  return Array.from(option.lastLine.trimEnd()).length + 1 + firstWord > width;
}

/**
 * The options of the prompt in `lines`, drawn `width` columns wide: runs of option lines numbered
 * 1, 2, 3… (other lines, such as a description, may sit between them); a `1.` starts a new run.
 * A label that the agent wrapped over several lines (a narrow pane) is read whole. The prompt is
 * drawn last, so the last run wins, the last one with the cursor on it when the set knows the
 * cursor (a numbered list in the transcript above has none).
 */
export function parseOptions(
  lines: readonly string[],
  answers: CompiledAnswers,
  width: number,
): PromptOption[] {
  const runs: DrawnOption[][] = [];
  let open: DrawnOption | undefined;
  for (const line of lines) {
    const groups = answers.option.exec(line)?.groups;
    const number = Number(groups?.number);
    const label = groups?.label?.trim();
    if (!Number.isInteger(number) || label === undefined || label === '') {
      if (open !== undefined && continues(open, line, width)) {
        open.label = `${open.label} ${line.trim()}`;
        open.lastLine = line;
      } else open = undefined;
      continue;
    }
    const option: DrawnOption = {
      number,
      label,
      cursor: answers.cursor?.test(line) ?? false,
      lastLine: line,
      indent: indentOf(line),
    };
    const run = runs.at(-1);
    open = undefined;
    if (number === 1) runs.push([(open = option)]);
    else if (run !== undefined && run.at(-1)!.number === number - 1) run.push((open = option));
  }
  const withCursor = runs.filter((run) => run.some((option) => option.cursor));
  const run = (answers.cursor !== undefined && withCursor.length > 0 ? withCursor : runs).at(-1) ?? [];
  return run.map(({ number, label, cursor }) => ({ number, label, cursor }));
}

/** A label of a row: words separated by single spaces, so runs of two or more spaces split labels. */
const ROW_LABEL = /\S+(?: \S+)*/gu;

/**
 * The options of a row of buttons: the last line of `lines` that `answers.option` matches, its
 * `row` group split into labels at runs of two or more spaces, numbered from the left. A label is
 * the selected one when every one of its cells carries one of the `selected` styles; the styles
 * are those of the last window line with the row's text (the prompt is drawn last). With no label,
 * or more than one, drawn so, none is marked.
 */
export function parseRow(
  lines: readonly string[],
  answers: CompiledAnswers,
  windowLines: readonly string[],
  styles: readonly StyleSpan[],
): PromptOption[] {
  let found: { line: string; start: number; text: string } | undefined;
  for (const line of lines) {
    const match = answers.option.exec(line);
    const text = match?.groups?.row;
    const start = match?.indices?.groups?.row?.[0];
    if (text !== undefined && start !== undefined) found = { line, start, text };
  }
  if (found === undefined) return [];
  const windowLine = windowLines.lastIndexOf(found.line);
  const lineStyles = styles.filter((span) => span.line === windowLine);
  const labels = [...found.text.matchAll(ROW_LABEL)].map((match) => {
    const from = Array.from(found.line.slice(0, found.start + match.index)).length;
    const to = from + Array.from(match[0]).length;
    return { label: match[0], selected: coveredBy(lineStyles, from, to, answers.selected) };
  });
  const selectedOnce = labels.filter((label) => label.selected).length === 1;
  return labels.map((label, index) => ({
    number: index + 1,
    label: label.label,
    cursor: selectedOnce && label.selected,
  }));
}

/** Whether every column from `from` to `to` lies in a span carrying one of `flags`. */
function coveredBy(
  spans: readonly StyleSpan[],
  from: number,
  to: number,
  flags: readonly StyleFlag[],
): boolean {
  const marked = spans.filter((span) => span.flags.some((flag) => flags.includes(flag)));
  for (let column = from; column < to; column++)
    if (!marked.some((span) => span.from <= column && column < span.to)) return false;
  return true;
}

export function readPrompt(set: RuleSet, view: ScreenView): PromptReading {
  const verdict = evaluate(set, view);
  if (verdict.state !== 'blocked' || verdict.rule === undefined)
    return { ok: false, reason: 'not-blocked', state: verdict.state };
  const rule = verdict.rule;
  const answers = set.answers.find((entry) => entry.rules.includes(rule));
  if (answers === undefined) return { ok: false, reason: 'no-answers', rule };
  const lines = new RegionReader(view, set).read(answers.region).lines;
  const options =
    answers.layout === 'row'
      ? parseRow(lines, answers, view.lines(), view.styles())
      : parseOptions(lines, answers, view.size().cols);
  if (options.length === 0) return { ok: false, reason: 'no-options', rule };
  return { ok: true, prompt: { rule, options, answers } };
}
