/** What `DirtyRows.of` says of a pane: every row, some rows, or nothing to repaint. */
export type PaneChanges = ReadonlySet<number> | 'all' | undefined;

/**
 * The rows of each pane that changed since the compositor last painted them, so a render
 * composites those rows and nothing else. The sets are kept and emptied between renders rather
 * than made anew for every frame.
 */
export class DirtyRows {
  private readonly rows = new Map<number, Set<number>>();
  private readonly whole = new Set<number>();

  /** Row `y` of `pane` changed. */
  row(pane: number, y: number): void {
    if (this.whole.has(pane)) return;
    let set = this.rows.get(pane);
    if (!set) {
      set = new Set();
      this.rows.set(pane, set);
    }
    set.add(y);
  }

  /** Every row of `pane` changed (a new pane, a resize). */
  pane(pane: number): void {
    this.whole.add(pane);
    this.rows.get(pane)?.clear();
  }

  of(pane: number): PaneChanges {
    if (this.whole.has(pane)) return 'all';
    const set = this.rows.get(pane);
    return set && set.size > 0 ? set : undefined;
  }

  /** Everything painted: nothing is dirty. */
  clear(): void {
    this.whole.clear();
    for (const set of this.rows.values()) set.clear();
  }

  /** Forget every pane (a reset: pane ids may come back meaning other panes). */
  forget(): void {
    this.whole.clear();
    this.rows.clear();
  }
}
