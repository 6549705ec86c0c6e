import { isPane, type Axis, type LayoutNode, type PaneId, type Rect, type SplitNode } from './types';

/**
 * Whether a subtree's rect reaches the right and bottom edges of the tab's area. A pane that stops
 * short of an edge gives its last column (or row) to a one-cell separator, so it needs one cell more
 * than a pane on the edge to keep any content.
 */
export interface Reach {
  readonly right: boolean;
  readonly bottom: boolean;
}

/** The tree's root spans the whole area. */
export const WHOLE_AREA: Reach = { right: true, bottom: true };

/** How one split divides its rect between its children. */
export interface SplitPlacement {
  readonly a: Rect;
  readonly b: Rect;
  readonly aReach: Reach;
  readonly bReach: Reach;
  /** Cells along the split's axis. */
  readonly extent: number;
  /** Cells the first child gets, and the range a resize may move that to. */
  readonly aCells: number;
  readonly aMin: number;
  readonly aMax: number;
}

export function clamp(value: number, lo: number, hi: number): number {
  return Math.min(Math.max(value, lo), hi);
}

function extentAlong(rect: Rect, axis: Axis): number {
  return axis === 'row' ? rect.cols : rect.rows;
}

function reachesEnd(reach: Reach, axis: Axis): boolean {
  return axis === 'row' ? reach.right : reach.bottom;
}

/**
 * The fewest cells of content a pane keeps, whatever the layout or the size of the area. tmux keeps
 * one (its PANE_MINIMUM) on each axis; here a pane is at least 2 columns, since that is the narrowest
 * terminal xterm.js makes, and a 1-column pty would drive a 2-column emulator. A split that would
 * leave less is refused, and an area smaller than the tree needs is overflowed (see `fittedArea`).
 */
export const PANE_MINIMUM = { cols: 2, rows: 1 } as const;

function minimumAlong(axis: Axis): number {
  return axis === 'row' ? PANE_MINIMUM.cols : PANE_MINIMUM.rows;
}

/** The content a pane needs along `axis` to be split there: two minimum panes and the separator between them. */
export function splitMinimum(axis: Axis): number {
  return 2 * minimumAlong(axis) + 1;
}

/** The fewest cells `node` can span along `axis` while each pane keeps its minimum of content. */
function minimumExtent(node: LayoutNode, axis: Axis, atEnd: boolean): number {
  if (isPane(node)) return atEnd ? minimumAlong(axis) : minimumAlong(axis) + 1;
  if (node.axis === axis) return minimumExtent(node.a, axis, false) + minimumExtent(node.b, axis, atEnd);
  return Math.max(minimumExtent(node.a, axis, atEnd), minimumExtent(node.b, axis, atEnd));
}

/**
 * The area the tree is laid out in: `area`, grown right and down to the fewest cells in which every
 * pane keeps its minimum. As tmux does, a terminal smaller than its layout keeps the layout (no pane
 * is crushed to nothing) and the attach client shows the part of it that fits.
 */
export function fittedArea(root: LayoutNode, area: Rect): Rect {
  return {
    ...area,
    cols: Math.max(area.cols, minimumExtent(root, 'row', true)),
    rows: Math.max(area.rows, minimumExtent(root, 'column', true)),
  };
}

/**
 * The first child gets round(extent × ratio) cells (halves round up), clamped so that no pane anywhere
 * below the split goes under its minimum; the second child gets the rest. `rect` is one that
 * `fittedArea` gave (or a part of it that this gave), so both children always have their minimum.
 */
export function placeSplit(split: SplitNode, rect: Rect, reach: Reach): SplitPlacement {
  const extent = extentAlong(rect, split.axis);
  const aMin = minimumExtent(split.a, split.axis, false);
  const aMax = extent - minimumExtent(split.b, split.axis, reachesEnd(reach, split.axis));
  const aCells = clamp(Math.round(extent * split.ratio), aMin, aMax);
  const bCells = extent - aCells;
  const common = { bReach: reach, extent, aCells, aMin, aMax };
  if (split.axis === 'row') {
    return {
      ...common,
      a: { x: rect.x, y: rect.y, cols: aCells, rows: rect.rows },
      b: { x: rect.x + aCells, y: rect.y, cols: bCells, rows: rect.rows },
      aReach: { right: false, bottom: reach.bottom },
    };
  }
  return {
    ...common,
    a: { x: rect.x, y: rect.y, cols: rect.cols, rows: aCells },
    b: { x: rect.x, y: rect.y + aCells, cols: rect.cols, rows: bCells },
    aReach: { right: reach.right, bottom: false },
  };
}

/** Each pane's tile, in tree order; the tiles cover `area` (one `fittedArea` gave) exactly. */
export function tileRects(root: LayoutNode, area: Rect): Map<PaneId, Rect> {
  const tiles = new Map<PaneId, Rect>();
  const place = (node: LayoutNode, rect: Rect, reach: Reach): void => {
    if (isPane(node)) {
      tiles.set(node.pane, rect);
      return;
    }
    const placed = placeSplit(node, rect, reach);
    place(node.a, placed.a, placed.aReach);
    place(node.b, placed.b, placed.bReach);
  };
  place(root, area, WHOLE_AREA);
  return tiles;
}

/** The tile less the separator column on its right and row at its bottom, where another pane lies beyond. */
export function contentRect(tile: Rect, area: Rect): Rect {
  const separatorRight = tile.x + tile.cols < area.x + area.cols ? 1 : 0;
  const separatorBelow = tile.y + tile.rows < area.y + area.rows ? 1 : 0;
  return {
    x: tile.x,
    y: tile.y,
    cols: tile.cols - separatorRight,
    rows: tile.rows - separatorBelow,
  };
}

export function assertArea(area: Rect): void {
  const whole = [area.x, area.y, area.cols, area.rows].every(Number.isSafeInteger);
  if (!whole || area.cols < 0 || area.rows < 0) {
    throw new RangeError(`an area is whole cells with a non-negative size, got ${JSON.stringify(area)}`);
  }
}
