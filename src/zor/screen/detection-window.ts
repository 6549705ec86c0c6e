/**
 * The detection window: which rows of a terminal the rules read.
 *
 * On the primary screen it is the last `rows` lines ending at the later of the last non-blank
 * viewport row and the cursor row. When the bottom of the viewport is blank (a short transcript
 * after a clear, an agent that draws at the top) that reaches back into scrollback, so the rules
 * still see a full screen of context. When the whole viewport is blank it ends at the viewport
 * bottom (nothing is shown, so nothing is read from history). On the alternate screen it is simply
 * that screen's rows. Lines are right-trimmed, wide glyphs appear once (their continuation cells
 * are skipped), and trailing blank lines are dropped.
 *
 * It reads buffer lines directly and never scrolls the terminal, so a user's scroll position (and
 * the fux server's viewport) is untouched.
 */
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
import type { StyleFlag, StyleSpan } from './screen-view';

function lineText(buffer: IBuffer, y: number): string {
  return buffer.getLine(y)?.translateToString(true).trimEnd() ?? '';
}

/** The buffer rows (first and last, inclusive) the detection window covers, before trailing blanks are dropped. */
function windowRows(buffer: IBuffer, rows: number): { readonly start: number; readonly end: number } {
  const top = buffer.baseY;
  let start = top;
  let end = top + rows - 1;
  if (buffer.type === 'normal') {
    let lastNonBlank = -1;
    for (let y = end; y >= top; y--) {
      if (lineText(buffer, y) !== '') {
        lastNonBlank = y;
        break;
      }
    }
    if (lastNonBlank >= 0) end = Math.max(lastNonBlank, top + buffer.cursorY);
    start = Math.max(0, end - rows + 1);
  }
  return { start, end };
}

export function detectionWindow(buffer: IBuffer, rows: number): string[] {
  const { start, end } = windowRows(buffer, rows);
  const lines: string[] = [];
  for (let y = start; y <= end; y++) lines.push(lineText(buffer, y));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The styled runs of the detection window `lines` (as detectionWindow returned them), read from
 * the same rows. Columns count code points of each line, so a wide glyph is one column, as in
 * the line's text.
 */
export function detectionWindowStyles(buffer: IBuffer, rows: number, lines: readonly string[]): StyleSpan[] {
  const { start } = windowRows(buffer, rows);
  const spans: StyleSpan[] = [];
  const cell = buffer.getNullCell();
  lines.forEach((text, index) => {
    const line = buffer.getLine(start + index);
    if (line === undefined || text === '') return;
    const width = Array.from(text).length;
    const usual = usualBackground(line, cell);
    // The current run: its flags as bits (no allocation per cell) and where it started.
    let runBits = 0;
    let runFrom = 0;
    let column = 0;
    const close = (to: number): void => {
      if (runBits !== 0) spans.push({ line: index, from: runFrom, to, flags: flagsOf(runBits) });
    };
    for (let x = 0; x < line.length && column < width; x++) {
      line.getCell(x, cell);
      if (cell.getWidth() === 0) continue;
      const chars = cell.getChars();
      const bits = cellBits(cell, usual);
      if (bits !== runBits) {
        close(column);
        runBits = bits;
        runFrom = column;
      }
      column += chars.length <= 1 ? 1 : Array.from(chars).length;
    }
    close(Math.min(width, column));
  });
  return spans;
}

/** A cell's background as one number: the colour mode's bits (set above bit 24) plus the colour. */
function backgroundOf(cell: IBufferCell): number {
  return cell.getBgColorMode() + cell.getBgColor();
}

/** The background most cells of the line have: the row's own, against which a button stands out. */
function usualBackground(line: IBufferLine, cell: IBufferCell): number {
  const counts = new Map<number, number>();
  let usual = 0;
  let most = 0;
  for (let x = 0; x < line.length; x++) {
    const background = backgroundOf(line.getCell(x, cell) ?? cell);
    const count = (counts.get(background) ?? 0) + 1;
    counts.set(background, count);
    if (count > most) {
      most = count;
      usual = background;
    }
  }
  return usual;
}

const BOLD = 1;
const INVERSE = 2;
const BACKGROUND = 4;

function cellBits(cell: IBufferCell, usualBackground: number): number {
  return (
    (cell.isBold() !== 0 ? BOLD : 0) |
    (cell.isInverse() !== 0 ? INVERSE : 0) |
    (backgroundOf(cell) !== usualBackground ? BACKGROUND : 0)
  );
}

/** The flags of a run's bits, in STYLE_FLAGS order. */
function flagsOf(bits: number): StyleFlag[] {
  const flags: StyleFlag[] = [];
  if ((bits & BOLD) !== 0) flags.push('bold');
  if ((bits & INVERSE) !== 0) flags.push('inverse');
  if ((bits & BACKGROUND) !== 0) flags.push('background');
  return flags;
}
