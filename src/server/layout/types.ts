/** A pane's id. Ids are unique across a workspace, so they are unique within a tab's layout. */
export type PaneId = number;

/** A rectangle of terminal cells; x/y are the top-left cell. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly cols: number;
  readonly rows: number;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * How a split arranges its two children. 'row': side by side, first on the left (a vertical divider;
 * CLI `split v`, prefix `|`). 'column': stacked, first on top (CLI `split h`, prefix `-`).
 */
export type Axis = 'row' | 'column';

export interface PaneNode {
  readonly pane: PaneId;
}

export interface SplitNode {
  readonly axis: Axis;
  /** The first child's share of the split's cells along its axis, strictly between 0 and 1. */
  readonly ratio: number;
  readonly a: LayoutNode;
  readonly b: LayoutNode;
}

/** The layout tree in the plain shape that `list` and the attach protocol carry. */
export type LayoutNode = PaneNode | SplitNode;

export function isPane(node: LayoutNode): node is PaneNode {
  return 'pane' in node;
}
