/**
 * A pane's history as copy mode walks it: rows of cells, oldest first, every row `cols` wide.
 * Positions are (row, col) with col on the first cell of a glyph, never on the right half of a
 * wide one. Row ends count as blanks between words (the protocol does not say which rows wrap).
 */
import { blankCell, type Cell } from '../runs';

export interface Point {
  row: number;
  col: number;
}

export type CharClass = 'blank' | 'word' | 'punct';

export class TextGrid {
  readonly rows: readonly Cell[][];

  constructor(
    rows: readonly Cell[][],
    readonly cols: number,
  ) {
    const fitted = rows.map((row) => fitRow(row, cols));
    this.rows = fitted.length > 0 ? fitted : [fitRow([], cols)];
  }

  get length(): number {
    return this.rows.length;
  }

  cell(p: Point): Cell {
    return this.rows[p.row]?.[p.col] ?? blankCell();
  }

  /** `col` moved left off the right half of a wide glyph. */
  snap(row: number, col: number): number {
    const c = Math.max(0, Math.min(col, this.cols - 1));
    return c > 0 && this.rows[row]?.[c]?.width === 0 ? c - 1 : c;
  }

  /** The next glyph's position, across row ends; undefined at the end. */
  next(p: Point): Point | undefined {
    const col = p.col + Math.max(1, this.cell(p).width);
    if (col < this.cols) return { row: p.row, col };
    return p.row + 1 < this.length ? { row: p.row + 1, col: 0 } : undefined;
  }

  /** The previous glyph's position, across row starts; undefined at the start. */
  prev(p: Point): Point | undefined {
    if (p.col > 0) return { row: p.row, col: this.snap(p.row, p.col - 1) };
    return p.row > 0 ? { row: p.row - 1, col: this.snap(p.row - 1, this.cols - 1) } : undefined;
  }

  classAt(p: Point): CharClass {
    const ch = this.cell(p).ch;
    if (ch === '' || /^\s+$/u.test(ch)) return 'blank';
    return /^[\p{L}\p{N}\p{M}_]/u.test(ch) ? 'word' : 'punct';
  }

  /** The first glyph of the row that is not blank (0 on a blank row). */
  firstNonBlank(row: number): number {
    for (let col = 0; col < this.cols; col++) if (this.classAt({ row, col }) !== 'blank') return col;
    return 0;
  }

  /** The last glyph of the row that is not blank (0 on a blank row). */
  lastNonBlank(row: number): number {
    for (let col = this.cols - 1; col >= 0; col--) {
      if (this.cell({ row, col }).width !== 0 && this.classAt({ row, col }) !== 'blank') return col;
    }
    return 0;
  }
}

function fitRow(row: readonly Cell[], cols: number): Cell[] {
  const out = row.slice(0, cols);
  // A wide glyph cut at the edge would leave its right half out: show a blank instead.
  if (out.length > 0 && out[out.length - 1].width === 2 && out.length === cols)
    out[out.length - 1] = blankCell();
  while (out.length < cols) out.push(blankCell());
  return out;
}

export function comparePoints(a: Point, b: Point): number {
  return a.row !== b.row ? a.row - b.row : a.col - b.col;
}
