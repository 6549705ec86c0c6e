/** U+2500 BOX DRAWINGS LIGHT HORIZONTAL, the only character that draws a rule; `---` in a transcript is text. */
const RULE_CHAR = '─';

/** A run this long is a rule even with text after it (`─── done`); a shorter run must stand alone (`──`). */
const MIN_RUN_WITH_TEXT = 3;

/**
 * A horizontal rule is a line whose trimmed text starts with a run of `─` and either nothing
 * follows the run or the run is at least three long.
 */
export function isHorizontalRule(line: string): boolean {
  const trimmed = line.trim();
  let run = 0;
  while (run < trimmed.length && trimmed[run] === RULE_CHAR) run++;
  if (run === 0) return false;
  return run === trimmed.length || run >= MIN_RUN_WITH_TEXT;
}
