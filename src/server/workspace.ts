import type { Pane } from './pane';
import type { PaneAgent } from './agent/pane-agent';
import type { PopupEntry } from './workspaces';
import { TabLayout, type Axis, type PaneId, type Rect } from './layout';
import { contentRect } from './layout/geometry';
import { FuxError, noPane } from './errors';

/** A pane as the workspace knows it: the pty and emulator, its agent detector, and where it lives. */
export interface PaneEntry {
  id: PaneId;
  tab: Tab;
  pane: Pane;
  command: string[];
  agent: PaneAgent;
  /** Its agent finished (working or blocked, then idle) while it was not the active pane, and it has not been focused since. */
  unseen: boolean;
}

export interface Size {
  cols: number;
  rows: number;
}

/** One tab: a layout tree of pane ids. Tab ids are unique in their workspace and never reused. */
export class Tab {
  constructor(
    readonly id: number,
    readonly layout: TabLayout,
  ) {}
}

/**
 * A named workspace: tabs, the panes in them, status segments and the size every layout is fitted
 * to. It owns no processes of its own; the Workspaces registry spawns and reaps panes and calls the
 * structural methods here, so every layout change goes through `fit()` and every pty follows its rect.
 */
export class Workspace {
  readonly tabs: Tab[] = [];
  readonly panes = new Map<PaneId, PaneEntry>();
  readonly status = new Map<string, string>();
  activeTab: Tab | undefined;
  /** The program shown over the workspace until it exits, if any (not in any tab). */
  popup: PopupEntry | undefined;
  private nextPaneId = 1;
  private nextTabId = 1;

  constructor(
    readonly name: string,
    public size: Size,
  ) {}

  get area(): Rect {
    return { x: 0, y: 0, cols: this.size.cols, rows: this.size.rows };
  }

  allocatePaneId(): PaneId {
    return this.nextPaneId++;
  }

  entry(id: PaneId): PaneEntry {
    const e = this.panes.get(id);
    if (!e) throw noPane(id, this.name);
    return e;
  }

  /** The focused pane of the active tab, if there is one. */
  get focused(): PaneEntry | undefined {
    const tab = this.activeTab;
    return tab ? this.panes.get(tab.layout.focused) : undefined;
  }

  /** Place `id` as the first pane of a new tab, made active. */
  addTab(id: PaneId): Tab {
    const tab = new Tab(this.nextTabId++, new TabLayout(id));
    this.tabs.push(tab);
    this.activeTab = tab;
    return tab;
  }

  /** Put `id` beside `target` in target's tab; the new pane takes focus. */
  splitInto(target: PaneEntry, axis: Axis, id: PaneId): Tab {
    target.tab.layout.split(target.id, axis, id);
    return target.tab;
  }

  /** The axis `new` splits along: the focused pane's longer side, in cells (a cell is about twice as tall as wide). */
  longerAxis(target: PaneEntry): Axis {
    const rect = this.contentRect(target.id);
    return rect.cols >= rect.rows * 2 ? 'row' : 'column';
  }

  /** Take a pane out of its tab (the tab goes when it empties). Returns the tab it was in. */
  detach(id: PaneId): Tab | undefined {
    const e = this.panes.get(id);
    if (!e) return undefined;
    this.panes.delete(id);
    const tab = e.tab;
    if (tab.layout.panes().length === 1) {
      const i = this.tabs.indexOf(tab);
      this.tabs.splice(i, 1);
      if (this.activeTab === tab) this.activeTab = this.tabs[Math.min(i, this.tabs.length - 1)];
    } else {
      tab.layout.remove(id);
    }
    return tab;
  }

  tabByNumber(n: number): Tab {
    const tab = this.tabs[n - 1];
    if (!tab) {
      throw new FuxError(
        'NOT_FOUND',
        `no tab ${n} in workspace ${this.name} (it has ${this.tabs.length}); \`fux list\` shows the tabs`,
      );
    }
    return tab;
  }

  tabNumber(tab: Tab): number {
    return this.tabs.indexOf(tab) + 1;
  }

  /** Each pane's content rect in its tab (its tile less the separators; the zoomed pane fills the area). */
  rects(tab: Tab): Map<PaneId, Rect> {
    const rects = tab.layout.contentRects(this.area);
    if (tab.layout.zoomed !== undefined) {
      // Panes hidden behind a zoom keep the geometry they have when the zoom ends.
      for (const [id, tile] of tab.layout.tiles(this.area))
        if (!rects.has(id)) rects.set(id, contentRect(tile, this.area));
    }
    return rects;
  }

  contentRect(id: PaneId): Rect {
    const e = this.entry(id);
    const r = this.rects(e.tab).get(id);
    if (!r) throw noPane(id, this.name);
    return r;
  }

  /** Resize every pty of a tab to its rect. Called after every structural change. */
  fit(tab: Tab): void {
    for (const [id, r] of this.rects(tab)) this.panes.get(id)?.pane.resize(r.cols, r.rows);
  }

  fitAll(): void {
    for (const tab of this.tabs) this.fit(tab);
  }

  /** Where the popup shows now: its size clamped to the workspace, centred. */
  popupRect(): Rect | undefined {
    return this.popup ? centred(this.size, popupSize(this.size, this.popup.want)) : undefined;
  }

  /** A pane an attached client can see and type into: one in a tab, or the popup. */
  shownPane(id: PaneId): Pane {
    return this.popup?.id === id ? this.popup.pane : this.entry(id).pane;
  }
}

/** A popup's size: as asked, else 80 % of the workspace; never larger than fits inside a border. */
export function popupSize(area: Size, want: Size | undefined): Size {
  const maxCols = Math.max(1, area.cols - 2);
  const maxRows = Math.max(1, area.rows - 2);
  const cols = want?.cols ?? Math.round(area.cols * 0.8);
  const rows = want?.rows ?? Math.round(area.rows * 0.8);
  return { cols: clamp(cols, 1, maxCols), rows: clamp(rows, 1, maxRows) };
}

function centred(area: Size, size: Size): Rect {
  return {
    x: Math.floor((area.cols - size.cols) / 2),
    y: Math.floor((area.rows - size.rows) / 2),
    cols: size.cols,
    rows: size.rows,
  };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
