import { Canvas, textWidth } from './canvas';

/**
 * The smallest terminal the client draws a workspace in: 12 columns, 4 rows (the tab bar, the
 * status line and two rows of panes), where the first tabs' labels and glyphs still fit. What a
 * layout needs beyond that (the server keeps each pane 2×1 and a border between neighbours) only
 * the server knows: a size it refuses shows this view too (Compositor.refused). Below the
 * minimum the client shows only tooSmallLines and keeps the workspace at its last size.
 */
export const MIN_COLS = 12;
export const MIN_ROWS = 4;

export function isTooSmall(cols: number, rows: number): boolean {
  return cols < MIN_COLS || rows < MIN_ROWS;
}

/**
 * What the too-small view says, wrapped at words to `cols` (a terminal too short for all of it
 * shows the first lines). `refused`: the server's reason when it would not lay the workspace
 * out at this size.
 */
export function tooSmallLines(cols: number, rows: number, refused?: string): string[] {
  const why =
    refused === undefined
      ? `${cols}×${rows}, fux needs ${MIN_COLS}×${MIN_ROWS}`
      : `for the panes: ${refused}`;
  return ['terminal too small', why].flatMap((text) => wrapWords(text, cols));
}

function wrapWords(text: string, cols: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && textWidth(line) + 1 + textWidth(word) > cols) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The view: the whole screen blank, the lines centred (cut to the width), the rest of the screen blank. */
export function paintTooSmall(canvas: Canvas, lines: string[], attr: number): void {
  const cols = canvas.cols;
  const rows = canvas.rows;
  canvas.fill({ x: 0, y: 0, cols, rows }, attr);
  const shown = lines.slice(0, rows);
  const top = Math.floor((rows - shown.length) / 2);
  shown.forEach((line, i) => {
    const x = Math.max(0, Math.floor((cols - textWidth(line)) / 2));
    canvas.text(x, top + i, line, attr);
  });
}
