import type { Row } from '../../protocol/attach';

/** One cell of a pane row as the client holds it. A width-2 cell is followed by a width-0 cell. */
export interface Cell {
  /** What the cell shows: one code point, a grapheme cluster, or '' for the right half of a wide glyph. */
  ch: string;
  width: 0 | 1 | 2;
  /** An id of the session's style table; 0 is the default rendition. */
  style: number;
}

const BLANK: Cell = Object.freeze({ ch: ' ', width: 1, style: 0 }) as Cell;

/** A blank cell in the default style (shared: never mutate it). */
export function blankCell(): Cell {
  return BLANK;
}

/**
 * A row of runs (see src/protocol/attach.ts) as exactly `cols` cells: runs expanded, wide
 * cells followed by their right half, padded with blanks, and cut at `cols` (a wide glyph that
 * would straddle the edge becomes a blank, as a terminal shows it).
 */
export function expandRow(row: Row, cols: number): Cell[] {
  const cells: Cell[] = [];
  for (const run of row) {
    const style = run[0];
    if (run.length === 3) {
      pushCell(cells, cols, run[1], run[2], style);
      continue;
    }
    for (const ch of run[1]) {
      if (cells.length >= cols) break;
      cells.push({ ch, width: 1, style });
    }
  }
  while (cells.length < cols) cells.push(BLANK);
  return cells;
}

function pushCell(cells: Cell[], cols: number, ch: string, width: 1 | 2, style: number): void {
  if (cells.length >= cols) return;
  if (width === 2) {
    if (cells.length + 1 >= cols) {
      cells.push({ ch: ' ', width: 1, style });
      return;
    }
    cells.push({ ch, width: 2, style }, { ch: '', width: 0, style });
    return;
  }
  cells.push({ ch, width: 1, style });
}

/** The row's text as a copy would take it: wide glyphs once, trailing blanks removed. */
export function plainText(cells: readonly Cell[]): string {
  let text = '';
  for (const cell of cells) if (cell.width !== 0) text += cell.ch;
  return text.replace(/ +$/, '');
}
