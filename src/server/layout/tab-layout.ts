import { FocusHistory } from './focus-history';
import { assertArea, contentRect, fittedArea, splitMinimum, tileRects } from './geometry';
import { findNeighbour } from './neighbour';
import { formatNotation, parseNotation } from './notation';
import { resizePane } from './resize';
import { containsPane, paneIdsOf, removePane, splitPane } from './tree';
import { isPane, type Axis, type Direction, type LayoutNode, type PaneId, type Rect } from './types';

function assertRatios(node: LayoutNode): void {
  if (isPane(node)) return;
  if (!(node.ratio > 0 && node.ratio < 1))
    throw new RangeError(`a split ratio is strictly between 0 and 1, got ${node.ratio}`);
  assertRatios(node.a);
  assertRatios(node.b);
}

function assertPaneId(id: PaneId): void {
  if (!Number.isSafeInteger(id) || id < 0)
    throw new RangeError(`a pane id is a non-negative integer, got ${id}`);
}

/**
 * The layout of one tab: a binary space partition of its area into panes, which pane is focused (and
 * which were before it), and which pane, if any, is zoomed to fill the tab. Pure: it knows nothing of
 * ptys; the workspace resizes each pty to its `contentRects` entry.
 *
 * A zoomed pane is always the focused one: focusing another pane or splitting ends the zoom (the
 * pane that gains focus would otherwise be hidden), closing a background pane keeps it.
 */
export class TabLayout {
  #root: LayoutNode;
  readonly #history: FocusHistory;
  #zoomed: PaneId | undefined;

  constructor(first: PaneId) {
    assertPaneId(first);
    this.#root = { pane: first };
    this.#history = new FocusHistory(first);
  }

  /** A layout from the notation `H0.3[P1, V0.6[P2, P3]]` (H = row, V = column); its first pane is focused. */
  static fromNotation(text: string): TabLayout {
    const root = parseNotation(text);
    const layout = new TabLayout(paneIdsOf(root)[0]!);
    layout.#root = root;
    return layout;
  }

  /**
   * A layout saved before a restart: its tree, its focus history (most recent first) and its zoom.
   * Throws a RangeError when the parts do not fit together (a damaged or hand-edited journal).
   */
  static restore(root: LayoutNode, recent: readonly PaneId[], zoomed: PaneId | undefined): TabLayout {
    const ids = paneIdsOf(root);
    ids.forEach(assertPaneId);
    if (new Set(ids).size !== ids.length) throw new RangeError('a pane appears twice in the layout');
    assertRatios(root);
    const focusOrder = recent.filter((id) => ids.includes(id));
    const layout = new TabLayout(focusOrder[0] ?? ids[0]!);
    layout.#root = root;
    for (const id of [...focusOrder].reverse()) layout.#history.touch(id);
    if (zoomed !== undefined) layout.toggleZoom(zoomed);
    return layout;
  }

  /** Pane ids in tree order: left before right, top before bottom. */
  panes(): PaneId[] {
    return paneIdsOf(this.#root);
  }

  has(id: PaneId): boolean {
    return containsPane(this.#root, id);
  }

  get focused(): PaneId {
    return this.#history.focused;
  }

  /** Panes most recently focused first; the focused pane is the first. */
  recentlyFocused(): PaneId[] {
    return this.#history.recent();
  }

  get zoomed(): PaneId | undefined {
    return this.#zoomed;
  }

  focus(id: PaneId): void {
    this.#assertHas(id);
    if (this.#zoomed !== id) this.#zoomed = undefined;
    this.#history.touch(id);
  }

  /**
   * Splits `target`, placing `newPane` second (right of it for 'row', below it for 'column') with
   * `ratio` of the cells left to `target`. The new pane is focused with `target` just behind it in
   * the history, so closing the new pane returns to the pane that opened it.
   */
  split(target: PaneId, axis: Axis, newPane: PaneId, ratio = 0.5): void {
    this.#assertHas(target);
    assertPaneId(newPane);
    if (this.has(newPane)) throw new RangeError(`pane ${newPane} is already in this tab`);
    if (!(ratio > 0 && ratio < 1))
      throw new RangeError(`a split ratio is strictly between 0 and 1, got ${ratio}`);
    this.#root = splitPane(this.#root, target, axis, newPane, ratio);
    this.#zoomed = undefined;
    this.#history.touch(target);
    this.#history.touch(newPane);
  }

  /**
   * Removes pane `id`; its sibling takes over its space. If it was focused, focus goes to the most
   * recently focused pane still present, else to the pane beside it in tree order within that sibling.
   * The last pane of a tab cannot be removed: closing it closes the tab, which is the workspace's job.
   */
  remove(id: PaneId): void {
    this.#assertHas(id);
    const removal = removePane(this.#root, id);
    if (!removal) throw new RangeError(`pane ${id} is the last pane of its tab; close the tab instead`);
    this.#root = removal.root;
    this.#history.forget(id, removal.heir);
    if (this.#zoomed === id) this.#zoomed = undefined;
  }

  /** Zooms `id` (default: the focused pane), focusing it; unzooms if it is already the zoomed pane. */
  toggleZoom(id: PaneId = this.focused): void {
    if (this.#zoomed === id) {
      this.#zoomed = undefined;
      return;
    }
    this.focus(id);
    this.#zoomed = id;
  }

  /**
   * The area the panes are laid out in: `area`, or more where the tree needs more for every pane to
   * keep its minimum of content (a terminal made smaller than its layout): the tiles then reach past
   * `area` to the right or below, and a client shows the part inside it.
   */
  layoutArea(area: Rect): Rect {
    assertArea(area);
    return fittedArea(this.#root, area);
  }

  /** Each pane's tile, in tree order; the tiles cover `layoutArea(area)` exactly, whatever the zoom. */
  tiles(area: Rect): Map<PaneId, Rect> {
    return tileRects(this.#root, this.layoutArea(area));
  }

  /**
   * The rect each pane's pty gets: its tile less a one-cell separator on the right and at the bottom
   * where another pane lies beyond. When zoomed, only the zoomed pane is listed and it gets all of
   * `area` (at least its minimum).
   */
  contentRects(area: Rect): Map<PaneId, Rect> {
    assertArea(area);
    if (this.#zoomed !== undefined)
      return new Map([[this.#zoomed, fittedArea({ pane: this.#zoomed }, area)]]);
    return this.tiledContentRects(area);
  }

  /** Every pane's rect as `contentRects` gives it with no zoom: where the panes behind a zoom are. */
  tiledContentRects(area: Rect): Map<PaneId, Rect> {
    const whole = this.layoutArea(area);
    const content = new Map<PaneId, Rect>();
    for (const [id, tile] of tileRects(this.#root, whole)) content.set(id, contentRect(tile, whole));
    return content;
  }

  /**
   * Whether `target` has room to be split along `axis` in `area`: its content there holds two panes
   * of `PANE_MINIMUM` and the separator between them (tmux's rule). Judged on the unzoomed layout,
   * since a split ends the zoom; when it holds, the split moves no other pane.
   */
  canSplit(target: PaneId, axis: Axis, area: Rect): boolean {
    this.#assertHas(target);
    const rect = this.tiledContentRects(area).get(target)!;
    return (axis === 'row' ? rect.cols : rect.rows) >= splitMinimum(axis);
  }

  /** The pane that directional focus from `from` reaches in `dir`, judged on the unzoomed tiles of `area`. */
  neighbour(from: PaneId, dir: Direction, area: Rect): PaneId | undefined {
    this.#assertHas(from);
    return findNeighbour(from, dir, this.tiles(area));
  }

  /**
   * Grows (delta > 0) or shrinks (delta < 0) pane `id` by `delta` cells of `area` along the axis of its
   * nearest enclosing split, clamped so every pane keeps its minimum of content; false if nothing
   * moved. Focus and history are untouched.
   */
  resize(id: PaneId, delta: number, area: Rect): boolean {
    this.#assertHas(id);
    if (!Number.isSafeInteger(delta))
      throw new RangeError(`a resize is a whole number of cells, got ${delta}`);
    const resized = resizePane(this.#root, id, delta, this.layoutArea(area));
    if (!resized) return false;
    this.#root = resized;
    return true;
  }

  /** The tree as plain data: `{pane}` or `{axis, ratio, a, b}`. */
  toJSON(): LayoutNode {
    return this.#root;
  }

  toNotation(): string {
    return formatNotation(this.#root);
  }

  #assertHas(id: PaneId): void {
    if (!this.has(id)) throw new RangeError(`pane ${id} is not in this tab`);
  }
}
