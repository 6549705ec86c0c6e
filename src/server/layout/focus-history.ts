import type { PaneId } from './types';

/**
 * The panes of a tab in the order they were last focused, most recent first. The head is the focused
 * pane: focus is read from here rather than kept beside it, so the two cannot disagree.
 */
export class FocusHistory {
  #recent: PaneId[];

  constructor(first: PaneId) {
    this.#recent = [first];
  }

  get focused(): PaneId {
    return this.#recent[0]!;
  }

  recent(): PaneId[] {
    return [...this.#recent];
  }

  /** Focuses `id`; every other pane keeps its place relative to the rest. */
  touch(id: PaneId): void {
    this.#recent = [id, ...this.#recent.filter((p) => p !== id)];
  }

  /**
   * Drops `id`. Closing the focused pane hands focus to the most recently focused survivor, or to
   * `heir` when no pane left in the tab was ever focused.
   */
  forget(id: PaneId, heir: PaneId): void {
    this.#recent = this.#recent.filter((p) => p !== id);
    if (this.#recent.length === 0) this.#recent = [heir];
  }
}
