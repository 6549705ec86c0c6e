/**
 * What zor reads from a terminal. The fux server owns one `@xterm/headless` Terminal per pane and
 * the wrapper owns one; both hand zor an implementation of this interface (XtermScreenView), and
 * fixtures are read through StaticScreenView. Rules see nothing else.
 */

/** The latest OSC 9;4 progress report: state 0 clear, 1 normal, 2 error, 3 indeterminate, 4 paused. */
export interface Progress {
  readonly state: number;
  readonly percent: number;
}

export interface ScreenSize {
  readonly rows: number;
  readonly cols: number;
}

/**
 * How a run of cells is drawn, as far as zor cares: `bold`, `inverse`, and `background` for a
 * background colour other than the row's own (the colour most of the row's cells have). A TUI
 * that marks its selection only by colour (a row of buttons) is read through these.
 */
export const STYLE_FLAGS = ['bold', 'inverse', 'background'] as const;
export type StyleFlag = (typeof STYLE_FLAGS)[number];

/**
 * A run of styled cells on one line of the detection window: columns `from` (inclusive) to `to`
 * (exclusive), counted in code points of the line's text as `lines()` gives it. Cells with none
 * of the flags have no span; neighbouring cells with the same flags share one.
 */
export interface StyleSpan {
  /** Index into `lines()`. */
  readonly line: number;
  readonly from: number;
  readonly to: number;
  /** Never empty, in STYLE_FLAGS order. */
  readonly flags: readonly StyleFlag[];
}

export interface ScreenView {
  /**
   * The detection window: right-trimmed lines, trailing blank lines dropped, wide glyphs once (see
   * detection-window.ts for which rows it covers).
   */
  lines(): readonly string[];
  /** The window's lines, each followed by `\n` (so the text of a non-empty window ends with one). */
  text(): string;
  /**
   * The styled runs of the window's lines, by line then column. Not read by rules' gates, so a
   * view computes it only when asked (answering a prompt), from the same rows as `lines()`.
   */
  styles(): readonly StyleSpan[];
  /** The OSC 0/2 title, control characters stripped, at most 256 characters; `''` when unset. */
  title(): string;
  /** `undefined` until the first OSC 9;4 report; a clear reads back as `{ state: 0, percent: 0 }`. */
  progress(): Progress | undefined;
  /** How many times the program rang the bell. */
  bellCount(): number;
  size(): ScreenSize;
  /**
   * Whether anything rules can see (window text, title, progress, bell) changed since the last call;
   * calling it resets the flag. A repaint of identical content is not a change.
   */
  takeChanged(): boolean;
}

/** Lines joined the way every region's text is: each line followed by `\n`. */
export function joinLines(lines: readonly string[]): string {
  let text = '';
  for (const line of lines) text += line + '\n';
  return text;
}

/** Right-trims every line and drops trailing blank ones, as the detection window does. */
export function normaliseWindowLines(lines: readonly string[]): string[] {
  const trimmed = lines.map((line) => line.trimEnd());
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return trimmed;
}
