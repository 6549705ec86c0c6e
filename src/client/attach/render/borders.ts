import type { Rect } from './canvas';

export interface BorderCell {
  x: number;
  y: number;
  ch: string;
  /** It borders the focused pane (drawn highlighted, like tmux's pane-active-border). */
  active: boolean;
}

const LEFT = 8;
const UP = 4;
const RIGHT = 2;
const DOWN = 1;

/** The line joining a cell to the separator cells around it. */
const JOIN: Record<number, string> = {
  [UP]: '│',
  [DOWN]: '│',
  [UP | DOWN]: '│',
  [LEFT]: '─',
  [RIGHT]: '─',
  [LEFT | RIGHT]: '─',
  [UP | DOWN | RIGHT]: '├',
  [UP | DOWN | LEFT]: '┤',
  [LEFT | RIGHT | DOWN]: '┬',
  [LEFT | RIGHT | UP]: '┴',
  [LEFT | RIGHT | UP | DOWN]: '┼',
  [DOWN | RIGHT]: '┌',
  [DOWN | LEFT]: '┐',
  [UP | RIGHT]: '└',
  [UP | LEFT]: '┘',
};

/**
 * The separators of a pane area `cols` × `rows`: the server lays panes out tmux-style, one cell
 * between neighbours, so every area cell no pane covers is a separator, and its glyph follows
 * from which of its four neighbours are separators too (`│ ─ ┼ ├ ┤ ┬ ┴`).
 */
export function separators(cols: number, rows: number, panes: readonly Rect[], focused?: Rect): BorderCell[] {
  if (panes.length === 0 || cols <= 0 || rows <= 0) return [];
  const covered = new Uint8Array(cols * rows);
  for (const p of panes) {
    for (let y = Math.max(0, p.y); y < Math.min(rows, p.y + p.rows); y++) {
      covered.fill(1, y * cols + Math.max(0, p.x), y * cols + Math.min(cols, p.x + p.cols));
    }
  }
  const isSeparator = (x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < cols && y < rows && covered[y * cols + x] === 0;
  const out: BorderCell[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      if (!isSeparator(x, y)) continue;
      const joins =
        (isSeparator(x - 1, y) ? LEFT : 0) |
        (isSeparator(x, y - 1) ? UP : 0) |
        (isSeparator(x + 1, y) ? RIGHT : 0) |
        (isSeparator(x, y + 1) ? DOWN : 0);
      out.push({ x, y, ch: JOIN[joins] ?? ' ', active: focused !== undefined && touches(focused, x, y) });
    }
  }
  return out;
}

/** Whether cell (x, y) is next to `rect`, diagonals included. */
function touches(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x - 1 && x <= rect.x + rect.cols && y >= rect.y - 1 && y <= rect.y + rect.rows;
}
