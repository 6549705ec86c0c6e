/**
 * The regions a rule can read. Each doc comment below is the exact definition rule authors rely on
 * (docs/rules.md repeats them); src/zor/rules/region-text.ts implements them.
 *
 * Every region is a list of lines. Its `text` (what `regex` and `contains` see) is each line
 * followed by `\n`, so an empty region is the empty string and `^`/`$` anchor at line edges.
 * Regions read the *detection text*: the detection window of the screen (see
 * src/zor/screen/detection-window.ts), each line right-trimmed, trailing blank lines dropped.
 */

/** The child's OSC 0/2 title, control characters stripped, at most 256 characters; one line, or none when unset. */
export interface TitleRegion {
  readonly kind: 'title';
}

/** The latest OSC 9;4 report as `<state>:<percent>` (`3:0`, `1:42`, `0:0` after a clear); no line until the first report. */
export interface ProgressRegion {
  readonly kind: 'progress';
}

/** The whole detection text. */
export interface WholeRegion {
  readonly kind: 'whole';
}

/** The last `lines` lines of the detection text, blank lines included. Written `bottom(N)`. */
export interface BottomRegion {
  readonly kind: 'bottom';
  readonly lines: number;
}

/**
 * From the `lines`-th non-empty line counting up from the bottom through to the end, blank lines in
 * between included; the whole text when there are fewer non-empty lines. Written `bottom_non_empty(N)`.
 */
export interface BottomNonEmptyRegion {
  readonly kind: 'bottom_non_empty';
  readonly lines: number;
}

/**
 * From the start through the `lines`-th non-empty line counting down from the top, blank lines in
 * between included; the whole text when there are fewer non-empty lines. Written `top_non_empty(N)`.
 */
export interface TopNonEmptyRegion {
  readonly kind: 'top_non_empty';
  readonly lines: number;
}

/**
 * The lines strictly between the second horizontal rule counting up from the bottom and the next
 * rule below it (the last rule); empty with fewer than two rules.
 */
export interface PromptBoxRegion {
  readonly kind: 'prompt_box';
}

/** Every line before the prompt box's upper rule; the whole text when there is no prompt box. */
export interface AbovePromptBoxRegion {
  readonly kind: 'above_prompt_box';
}

/** The last non-empty line of `above_prompt_box`; empty when it has none. */
export interface LastLineAbovePromptBoxRegion {
  readonly kind: 'last_line_above_prompt_box';
}

/** The lines after the last horizontal rule; empty when there is no rule. */
export interface AfterLastRuleRegion {
  readonly kind: 'after_last_rule';
}

/**
 * The lines after the last *prompt-marker line*: a line equal to the set's `prompt_marker`, or
 * starting with it followed by a space. Empty when there is no such line. Needs `prompt_marker`.
 */
export interface AfterLastPromptMarkerRegion {
  readonly kind: 'after_last_prompt_marker';
}

/**
 * The whole detection text, or empty while the agent is at its prompt: a prompt-marker line exists
 * and no line after the last one starts with one of the set's `block_markers`. Needs `prompt_marker`.
 */
export interface WholeUnlessAtPromptRegion {
  readonly kind: 'whole_unless_at_prompt';
}

export type Region =
  | TitleRegion
  | ProgressRegion
  | WholeRegion
  | BottomRegion
  | BottomNonEmptyRegion
  | TopNonEmptyRegion
  | PromptBoxRegion
  | AbovePromptBoxRegion
  | LastLineAbovePromptBoxRegion
  | AfterLastRuleRegion
  | AfterLastPromptMarkerRegion
  | WholeUnlessAtPromptRegion;

export type RegionKind = Region['kind'];

const PLAIN_KINDS = [
  'title',
  'progress',
  'whole',
  'prompt_box',
  'above_prompt_box',
  'last_line_above_prompt_box',
  'after_last_rule',
  'after_last_prompt_marker',
  'whole_unless_at_prompt',
] as const;

const COUNTED_KINDS = ['bottom', 'bottom_non_empty', 'top_non_empty'] as const;

/** A counted region reads at most this many lines; a larger N is a typo, not a screen. */
export const MAX_REGION_LINES = 1000;

/** The regions whose text depends on the rule set's `prompt_marker`. */
export const REGIONS_NEEDING_PROMPT_MARKER: readonly RegionKind[] = [
  'after_last_prompt_marker',
  'whole_unless_at_prompt',
];

/** Every region name as written in a rule file, for error messages and docs. */
export const REGION_SYNTAX: readonly string[] = [
  ...PLAIN_KINDS,
  ...COUNTED_KINDS.map((kind) => `${kind}(N)`),
];

/** Parses `whole`, `bottom(12)` and the like; returns an explanation instead when the text is not a region. */
export function parseRegion(text: string): Region | { readonly problem: string } {
  const plain = PLAIN_KINDS.find((kind) => kind === text);
  if (plain !== undefined) return { kind: plain };
  const counted = /^([a-z_]+)\((\d+)\)$/.exec(text);
  const kind = counted && COUNTED_KINDS.find((candidate) => candidate === counted[1]);
  if (!counted || !kind) {
    return { problem: `unknown region "${text}"; regions are ${REGION_SYNTAX.join(', ')}` };
  }
  const lines = Number(counted[2]);
  if (lines < 1 || lines > MAX_REGION_LINES) {
    return { problem: `region "${text}" needs a line count from 1 to ${MAX_REGION_LINES}` };
  }
  return { kind, lines };
}

export function formatRegion(region: Region): string {
  switch (region.kind) {
    case 'bottom':
    case 'bottom_non_empty':
    case 'top_non_empty':
      return `${region.kind}(${region.lines})`;
    default:
      return region.kind;
  }
}
