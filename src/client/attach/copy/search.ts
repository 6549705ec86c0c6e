/**
 * Text search over a TextGrid, row by row (a match does not span rows), wrapping at either end as
 * tmux's does. Smart case: a query with no capital letter matches any case.
 */
import type { Point, TextGrid } from './text-grid';

export type SearchDirection = 'forward' | 'backward';

export interface SearchResult {
  at: Point;
  /** The search went past an end of the history and came round from the other. */
  wrapped: boolean;
}

/** A row as text, with the column of the glyph each code unit belongs to. */
interface RowText {
  text: string;
  colOf: number[];
}

export class GridSearch {
  private readonly exact: Array<RowText | undefined> = [];
  private readonly folded: Array<RowText | undefined> = [];

  constructor(private readonly grid: TextGrid) {}

  /**
   * The nearest match of `query` after (or before) `from`, or undefined when there is none. The
   * order is the rest of the starting row, the rows beyond it, round from the other end, and last
   * the starting row up to `from` (so a lone match under the cursor is found again, wrapped).
   */
  find(query: string, from: Point, direction: SearchDirection): SearchResult | undefined {
    if (query === '') return undefined;
    const fold = query === query.toLowerCase();
    const needle = fold ? query.toLowerCase() : query;
    const rows = this.grid.length;
    const forward = direction === 'forward';
    for (let step = 0; step <= rows; step++) {
      const ahead = from.row + (forward ? step : -step);
      const row = ((ahead % rows) + rows) % rows;
      const counts = (col: number): boolean => {
        if (step === 0) return forward ? col > from.col : col < from.col;
        if (step === rows) return forward ? col <= from.col : col >= from.col;
        return true;
      };
      const cols = this.matchColumns(row, needle, fold).filter(counts);
      if (cols.length > 0) {
        const col = forward ? cols[0] : cols[cols.length - 1];
        return { at: { row, col }, wrapped: ahead < 0 || ahead >= rows };
      }
    }
    return undefined;
  }

  private matchColumns(row: number, needle: string, fold: boolean): number[] {
    const { text, colOf } = this.rowText(row, fold);
    const cols: number[] = [];
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) cols.push(colOf[i]);
    return cols;
  }

  private rowText(row: number, fold: boolean): RowText {
    const cache = fold ? this.folded : this.exact;
    const cached = cache[row];
    if (cached) return cached;
    let text = '';
    const colOf: number[] = [];
    this.grid.rows[row].forEach((cell, col) => {
      if (cell.width === 0) return;
      const ch = fold ? cell.ch.toLowerCase() : cell.ch;
      text += ch;
      for (let i = 0; i < ch.length; i++) colOf.push(col);
    });
    const made = { text, colOf };
    cache[row] = made;
    return made;
  }
}
