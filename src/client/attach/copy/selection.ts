/**
 * A copy-mode selection: from an anchor to the cursor, both ends included (vi's visual mode), or
 * whole rows (visual line mode); and the text a yank takes from it.
 */
import { plainText } from '../runs';
import { comparePoints, type Point, type TextGrid } from './text-grid';

export type SelectionMode = 'char' | 'line';

export interface Selection {
  anchor: Point;
  mode: SelectionMode;
}

/** The selected cells of one row: columns `from` up to but not including `to`. */
export interface RowRange {
  row: number;
  from: number;
  to: number;
}

export function selectedRanges(grid: TextGrid, selection: Selection, cursor: Point): RowRange[] {
  const [start, end] =
    comparePoints(selection.anchor, cursor) <= 0 ? [selection.anchor, cursor] : [cursor, selection.anchor];
  const ranges: RowRange[] = [];
  for (let row = start.row; row <= end.row; row++) {
    if (selection.mode === 'line') {
      ranges.push({ row, from: 0, to: grid.cols });
      continue;
    }
    const from = row === start.row ? start.col : 0;
    const to = row === end.row ? end.col + Math.max(1, grid.cell(end).width) : grid.cols;
    ranges.push({ row, from, to: Math.min(to, grid.cols) });
  }
  return ranges;
}

/** What a yank copies: each row's text (wide glyphs once, trailing blanks dropped), rows joined by `\n`. */
export function selectedText(grid: TextGrid, ranges: readonly RowRange[]): string {
  return ranges.map((r) => plainText(grid.rows[r.row].slice(r.from, r.to))).join('\n');
}
