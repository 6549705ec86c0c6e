import type { Pane, PaneExit } from './pane';
import type { PaneAgent } from './agent/pane-agent';
import { isFinish, type AgentChange } from './agent/agent-status';
import { TabLayout, type Axis, type Direction, type PaneId, type Rect } from './layout';
import { contentRect } from './layout/geometry';
import { FuxError, noPane } from './errors';
import { noChange, type Change } from './change';
import { flagNames } from '../zor';

/** What the workspace needs of a pty: to follow its rect, and its pid for the events. */
export interface Fitted {
  resize(cols: number, rows: number): void;
  readonly pid: number;
}

/** A pane tiled in a tab, as far as the layout is concerned. */
export interface Tiled {
  readonly id: PaneId;
  readonly tab: Tab;
  readonly pane: Fitted;
  readonly command: string[];
  /** Its agent finished (working or blocked, then idle) while nobody looked at it, and nobody has since (see Workspace.lookedAt). */
  unseen: boolean;
}

/** A pane placed over the workspace (a popup), as far as the layout is concerned. */
export interface Floating {
  readonly id: PaneId;
  readonly pane: Fitted;
  /** The size asked for; the shown size is clamped to the workspace (see `popupRect`). */
  readonly want: Size | undefined;
}

/** A pane as the server knows it: the pty and emulator, its agent detector, and the tab it lives in. */
export interface PaneEntry extends Tiled {
  readonly pane: Pane;
  readonly agent: PaneAgent;
  /** How it was started, for the journal: the caller's environment, and when (ms since the epoch). */
  readonly launch: { readonly env: Readonly<Record<string, string>>; readonly at: number };
  /** It came back from the journal after a restart (`fux list` marks it). */
  readonly restored: boolean;
}

/** A popup: a pane like the others (started, watched and reaped the same way) placed over the workspace until it exits. */
export interface PopupEntry extends Floating {
  readonly pane: Pane;
  readonly command: string[];
  readonly exited: Promise<PaneExit>;
}

export interface Size {
  cols: number;
  rows: number;
}

/** Where a new pane goes: the first of a new tab, or beside a pane (default the focused one; no pane: a new tab). */
export type Where = { tab: true } | { beside?: PaneId; axis?: Axis };

/** One tab: a layout tree of pane ids. Tab ids are unique in their workspace and never reused. */
export class Tab {
  constructor(
    readonly id: number,
    readonly layout: TabLayout,
  ) {}
}

/**
 * A named workspace: tabs, the panes in them, the popup, status segments and the size every
 * layout is fitted to. It starts no processes: the Workspaces registry starts and reaps them and
 * calls the operations here, each of which keeps every pty on its rect and returns the `Change` it
 * made for the registry to publish.
 */
export class Workspace<E extends Tiled = PaneEntry, F extends Floating = PopupEntry> {
  readonly tabs: Tab[] = [];
  readonly panes = new Map<PaneId, E>();
  readonly status = new Map<string, string>();
  activeTab: Tab | undefined;
  /** The program shown over the workspace until it exits, if any (not in any tab). */
  popup: F | undefined;
  /** Attached clients showing this workspace (the attach hub keeps it up to date). */
  private viewers = 0;
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

  entry(id: PaneId): E {
    const e = this.panes.get(id);
    if (!e) throw noPane(id, this.name);
    return e;
  }

  /** The focused pane of the active tab, if there is one. */
  get focused(): E | undefined {
    const tab = this.activeTab;
    return tab ? this.panes.get(tab.layout.focused) : undefined;
  }

  /** The pane a new pane goes beside: the one named (which must exist), else the focused one. */
  target(where: Where): E | undefined {
    if ('tab' in where) return undefined;
    return where.beside === undefined ? this.focused : this.entry(where.beside);
  }

  /**
   * Place a started pane (`build` makes its entry, given its tab). It takes the focus, and its tab
   * becomes the active one; the split goes along `axis`, else the target's longer side.
   */
  add(id: PaneId, build: (tab: Tab) => E, where: Where): { entry: E; change: Change } {
    const before = this.focused?.id;
    const target = this.target(where);
    if (target) {
      const axis = 'axis' in where && where.axis ? where.axis : this.longerAxis(target);
      target.tab.layout.split(target.id, axis, id);
      return this.place(build(target.tab), before);
    }
    const tab = new Tab(this.nextTabId++, new TabLayout(id));
    this.tabs.push(tab);
    return this.place(build(tab), before);
  }

  private place(entry: E, before: PaneId | undefined): { entry: E; change: Change } {
    const tab = entry.tab;
    this.panes.set(entry.id, entry);
    this.activeTab = tab;
    this.fit(tab);
    const change: Change = {
      ...this.focusSince(before),
      opened: [{ id: entry.id, tab: tab.id, command: entry.command, pid: entry.pane.pid }],
      layout: true,
      tabs: true,
    };
    return { entry, change };
  }

  /**
   * Put back a tab saved before a restart: its id, its layout, and the panes `build` starts for it
   * (given the tab and each pane's rect, so each program starts at its size). Ids allocated later
   * never collide with the restored ones.
   */
  restoreTab(id: number, layout: TabLayout, build: (tab: Tab, rects: Map<PaneId, Rect>) => E[]): Tab {
    if (this.tabs.some((t) => t.id === id)) throw new RangeError(`tab ${id} appears twice`);
    const tab = new Tab(id, layout);
    for (const e of build(tab, this.rects(tab))) {
      this.panes.set(e.id, e);
      this.nextPaneId = Math.max(this.nextPaneId, e.id + 1);
    }
    this.tabs.push(tab);
    this.nextTabId = Math.max(this.nextTabId, id + 1);
    this.activeTab ??= tab;
    this.fit(tab);
    return tab;
  }

  /** The ids the next pane and tab get (a restored workspace keeps counting from where it was). */
  get nextIds(): { pane: PaneId; tab: number } {
    return { pane: this.nextPaneId, tab: this.nextTabId };
  }

  reserveIds(next: { pane: PaneId; tab: number }): void {
    this.nextPaneId = Math.max(this.nextPaneId, next.pane);
    this.nextTabId = Math.max(this.nextTabId, next.tab);
  }

  /** The axis `new` splits along: the pane's longer side, in cells (a cell is about twice as tall as wide). */
  longerAxis(target: E): Axis {
    const rect = this.contentRect(target.id);
    return rect.cols >= rect.rows * 2 ? 'row' : 'column';
  }

  /** Show `popup` over the workspace; one at a time. */
  showPopup(popup: F): Change {
    this.assertNoPopup();
    this.popup = popup;
    return { ...noChange(this.name), popup: 'opened' };
  }

  /** A second popup is refused (before its program starts). */
  assertNoPopup(): void {
    if (this.popup) {
      throw new FuxError(
        'CONFLICT',
        `workspace ${this.name} already shows a popup (pane ${this.popup.id}); it closes when its program exits`,
      );
    }
  }

  /**
   * Take a pane out (of its tab, or the popup); the tab goes when it empties and the rest are
   * refitted. A pane that is not there any more (killed before its process ended) changes nothing.
   */
  remove(id: PaneId): Change {
    if (this.popup?.id === id) {
      this.popup = undefined;
      return { ...noChange(this.name), popup: 'closed' };
    }
    const e = this.panes.get(id);
    if (!e) return noChange(this.name);
    const before = this.focused?.id;
    this.panes.delete(id);
    const tab = e.tab;
    if (tab.layout.panes().length === 1) {
      const i = this.tabs.indexOf(tab);
      this.tabs.splice(i, 1);
      if (this.activeTab === tab) this.activeTab = this.tabs[Math.min(i, this.tabs.length - 1)];
    } else {
      tab.layout.remove(id);
      this.fit(tab);
    }
    return { ...this.focusSince(before), closed: [id], layout: true, tabs: true };
  }

  /** Focus a pane by id (making its tab active), or the nearest pane in a direction (none there: no change). */
  focus(target: PaneId | Direction): Change {
    const before = this.focused?.id;
    if (typeof target === 'number') {
      const e = this.entry(target);
      const tabs = this.activeTab !== e.tab;
      this.activeTab = e.tab;
      const zoomEnds = e.tab.layout.zoomed !== undefined && e.tab.layout.zoomed !== target;
      e.tab.layout.focus(target);
      if (zoomEnds) this.fit(e.tab);
      return { ...this.focusSince(before), tabs, layout: zoomEnds };
    }
    const cur = this.focused;
    if (!cur) throw new FuxError('PRECONDITION_FAILED', `workspace ${this.name} has no focused pane`);
    const next = cur.tab.layout.neighbour(cur.id, target, this.area);
    if (next === undefined) return noChange(this.name);
    const zoomEnds = cur.tab.layout.zoomed !== undefined;
    cur.tab.layout.focus(next);
    if (zoomEnds) this.fit(cur.tab);
    return { ...this.focusSince(before), layout: zoomEnds };
  }

  /** Zoom a pane (default the focused one) to fill its tab, focusing it, or end its zoom. */
  zoom(id: PaneId | undefined): Change {
    const e = id === undefined ? this.focused : this.entry(id);
    if (!e) throw new FuxError('PRECONDITION_FAILED', `workspace ${this.name} has no pane to zoom`);
    const before = this.focused?.id;
    const tabs = this.activeTab !== e.tab;
    this.activeTab = e.tab;
    e.tab.layout.focus(e.id);
    e.tab.layout.toggleZoom(e.id);
    this.fit(e.tab);
    return {
      ...this.focusSince(before),
      tabs,
      layout: true,
      zoom: { id: e.id, zoomed: e.tab.layout.zoomed === e.id },
    };
  }

  /** Grow or shrink a pane along its split axis; no room to move: no change. */
  resizePane(id: PaneId, delta: number): Change {
    const e = this.entry(id);
    if (!e.tab.layout.resize(id, delta, this.area)) return noChange(this.name);
    this.fit(e.tab);
    return { ...noChange(this.name), layout: true };
  }

  /** Make a tab active: the next, the previous (both wrap) or the one of a number (1-based). */
  selectTab(which: 'next' | 'prev' | number): Change {
    const before = this.focused?.id;
    const cur = this.activeTab ? this.tabs.indexOf(this.activeTab) : 0;
    const n = this.tabs.length;
    const index = which === 'next' ? (cur + 1) % n : which === 'prev' ? (cur - 1 + n) % n : which - 1;
    const tab = this.tabByNumber(index + 1);
    const tabs = tab !== this.activeTab;
    this.activeTab = tab;
    return { ...this.focusSince(before), tabs };
  }

  /** Set a status segment; empty text removes it. */
  setStatus(segment: string, text: string): Change {
    if (text === '') this.status.delete(segment);
    else this.status.set(segment, text);
    return { ...noChange(this.name), status: true };
  }

  /** Fit every layout, and the popup, to a new size. */
  resize(size: Size): Change {
    if (this.size.cols === size.cols && this.size.rows === size.rows) return noChange(this.name);
    this.size = { cols: size.cols, rows: size.rows };
    for (const tab of this.tabs) this.fit(tab);
    const popup = this.popupRect();
    if (popup) this.popup!.pane.resize(popup.cols, popup.rows);
    return { ...noChange(this.name), layout: true, resized: { ...this.size } };
  }

  /** A pane's title changed (a popup's is not shown: the overlay names its command). */
  retitle(id: PaneId, title: string): Change {
    if (!this.panes.has(id)) return noChange(this.name);
    return { ...noChange(this.name), title: { id, title } };
  }

  /**
   * Whether someone is looking at a pane: it is the focused pane of the active tab and a client is
   * attached to this workspace. What happens there is not news (no unseen mark, no notification).
   */
  lookedAt(id: PaneId): boolean {
    return this.viewers > 0 && this.focused?.id === id;
  }

  /** The attach hub says how many clients show this workspace; the first one sees its focused pane. */
  setViewers(n: number): Change {
    this.viewers = n;
    return this.see();
  }

  /**
   * A pane's agent changed state. Attention: an agent that finished while nobody looked at its
   * pane leaves the pane unseen until someone does.
   */
  agentMoved(id: PaneId, change: AgentChange): Change {
    const e = this.panes.get(id);
    // A killed pane is out of the layout before its process has gone; it has nothing more to say.
    if (!e) return noChange(this.name);
    const { previous, current } = change;
    if (isFinish(previous.state, current.state) && !this.lookedAt(id)) e.unseen = true;
    return {
      ...noChange(this.name),
      agent: {
        id,
        agent: current.agent ?? null,
        previous: previous.state,
        state: current.state,
        visible: flagNames(current.visible),
        question: change.question ?? null,
        ts: change.at,
      },
    };
  }

  /** The change of focus since `before`; focusing a pane where a client shows it is seeing it. */
  private focusSince(before: PaneId | undefined): Change {
    const now = this.focused;
    const seen = this.see();
    if (now?.id === before) return seen;
    return { ...seen, focus: { from: before, to: now?.id } };
  }

  /** The focused pane, if it is unseen and looked at now, becomes seen. */
  private see(): Change {
    const e = this.focused;
    if (!e?.unseen || !this.lookedAt(e.id)) return noChange(this.name);
    e.unseen = false;
    return { ...noChange(this.name), seen: e.id };
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

  /** Resize every pty of a tab to its rect: after every structural change. */
  private fit(tab: Tab): void {
    for (const [id, r] of this.rects(tab)) this.panes.get(id)?.pane.resize(r.cols, r.rows);
  }

  /** Where the popup shows now: its size clamped to the workspace, centred. */
  popupRect(): Rect | undefined {
    return this.popup ? centred(this.size, popupSize(this.size, this.popup.want)) : undefined;
  }

  /** A pane an attached client can see and type into: one in a tab, or the popup. */
  shownPane(id: PaneId): E['pane'] | F['pane'] {
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
