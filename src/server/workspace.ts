import type { Pane } from './pane';
import type { PaneAgent } from './agent/pane-agent';
import { isFinish, type AgentChange } from './agent/agent-status';
import { TabLayout, type Axis, type Direction, type PaneId, type Rect } from './layout';
import { PANE_MINIMUM } from './layout/geometry';
import { FuxError, noPane, noSpace } from './errors';
import { noChange, type Change, type OpenedPane } from './change';
import { flagNames } from '../zor';
import { ReachedStates } from './reached-states';
import { MAX_STATUS_SEGMENTS } from '../protocol/limits';

/** What the workspace needs of a pty: to follow its rect, and its pid for the events. */
export interface Fitted {
  resize(cols: number, rows: number): void;
  readonly pid: number;
}

/** Where a pane shows: a tile in a tab's layout, or a popup centred over the workspace (its size as asked, see `popupRect`). */
export type Placement =
  { readonly kind: 'tiled'; readonly tab: Tab } | { readonly kind: 'popup'; readonly want: Size | undefined };

/** A pane as far as the layout is concerned: its pty, what it runs, and where it shows. */
export interface Placed {
  readonly id: PaneId;
  readonly pane: Fitted;
  readonly command: string[];
  readonly placement: Placement;
  /** Its agent finished (working or blocked, then idle) while nobody looked at it, and nobody has since (see Workspace.lookedAt). */
  unseen: boolean;
}

/** A pane in a tab (the journal keeps only these). */
export type TiledEntry<E extends Placed = PaneEntry> = E & {
  readonly placement: { readonly kind: 'tiled'; readonly tab: Tab };
};

function isTiled<E extends Placed>(e: E): e is TiledEntry<E> {
  return e.placement.kind === 'tiled';
}

/** The tab a pane is tiled in; the popup is in none, and what needs a tile refuses it. */
export function tabOf(e: Placed, workspace: string): Tab {
  if (e.placement.kind === 'tiled') return e.placement.tab;
  throw new FuxError(
    'PRECONDITION_FAILED',
    `pane ${e.id} is the popup of workspace ${workspace}, in no tab; it closes when its program exits`,
  );
}

/**
 * A pane as the server knows it, tiled or popup alike: the pty and emulator, its agent detector,
 * and where it shows.
 */
export interface PaneEntry extends Placed {
  readonly pane: Pane;
  readonly agent: PaneAgent;
  /** How it was started, for the journal: the caller's environment, and when (ms since the epoch). */
  readonly launch: { readonly env: Readonly<Record<string, string>>; readonly at: number };
  /** It came back from the journal after a restart (`fux list` marks it). */
  readonly restored: boolean;
  /** Of those, its program kept running under its holder meanwhile: the same process, taken back. */
  readonly survived: boolean;
}

export interface Size {
  cols: number;
  rows: number;
}

/**
 * Where a new pane goes: the first of a new tab, beside a pane (default the focused one; no pane:
 * a new tab), or over the workspace as its popup, at the size asked (else 80 % of it).
 */
export type Where = { tab: true } | { beside?: PaneId; axis?: Axis } | { popup: Size | undefined };

/** One tab: a layout tree of pane ids. Tab ids are unique in their workspace and never reused. */
export class Tab {
  constructor(
    readonly id: number,
    readonly layout: TabLayout,
  ) {}
}

/**
 * A named workspace: tabs, its panes (each tiled in a tab or the popup over them), status
 * segments and the size every layout is fitted to. It starts no processes: the Workspaces
 * registry starts and reaps them and calls the operations here, each of which keeps every pty on
 * its rect and returns the `Change` it made for the registry to publish.
 */
export class Workspace<E extends Placed = PaneEntry> {
  readonly tabs: Tab[] = [];
  /** Every pane, tiled or popup: one id space, one lifecycle. */
  readonly panes = new Map<PaneId, E>();
  readonly status = new Map<string, string>();
  /** What its panes' agents reached and how its panes ended, for `wait`. */
  readonly reached = new ReachedStates();
  activeTab: Tab | undefined;
  /** The pane placed as the popup, if one shows (at most one does). */
  private popupId: PaneId | undefined;
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

  /** A pane by id, tiled or popup. */
  entry(id: PaneId): E {
    const e = this.panes.get(id);
    if (!e) throw noPane(id, this.name);
    return e;
  }

  /** The panes in tabs: every pane but the popup. */
  tiles(): Array<TiledEntry<E>> {
    return [...this.panes.values()].filter(isTiled);
  }

  /** The focused pane of the active tab, if there is one (never the popup: it floats above the focus). */
  get focused(): E | undefined {
    const tab = this.activeTab;
    return tab ? this.panes.get(tab.layout.focused) : undefined;
  }

  /** The pane shown over the workspace, if any: keys go to it while it shows. */
  get popup(): E | undefined {
    return this.popupId === undefined ? undefined : this.panes.get(this.popupId);
  }

  /**
   * Refuse, before its program starts, a pane that cannot go where asked: beside a pane that is
   * not there, is the popup or is too small to split, or a second popup.
   */
  check(where: Where): void {
    if ('popup' in where) this.assertNoPopup();
    else this.splitPlan(where);
  }

  /**
   * The tiled pane a new one splits, its tab and the axis (as asked, else the target's longer
   * side); undefined: the new pane opens a tab. A target without room for two panes along that
   * axis is refused, so no pane is ever laid out smaller than the minimum.
   */
  private splitPlan(
    where: Exclude<Where, { popup: unknown }>,
  ): { target: E; tab: Tab; axis: Axis } | undefined {
    if ('tab' in where) return undefined;
    const target = where.beside === undefined ? this.focused : this.entry(where.beside);
    if (!target) return undefined;
    const tab = tabOf(target, this.name);
    const axis = where.axis ?? this.longerAxis(target);
    if (!tab.layout.canSplit(target.id, axis, this.area)) {
      throw noSpace({ id: target.id, ...this.tiledRect(target.id) }, axis, this.name);
    }
    return { target, tab, axis };
  }

  /**
   * Place a started pane (`build` makes its entry, given its placement). A tiled pane takes the
   * focus, and its tab becomes the active one; the split goes along `axis`, else the target's
   * longer side. A popup shows over the workspace and leaves the focus where it was, to come back
   * to when the popup closes. A placement it refuses (see `check`) is refused before anything
   * changes.
   */
  add(id: PaneId, build: (placement: Placement) => E, where: Where): { entry: E; change: Change } {
    if ('popup' in where) {
      this.assertNoPopup();
      const entry = build({ kind: 'popup', want: where.popup });
      this.panes.set(id, entry);
      this.popupId = id;
      this.fitPopup();
      return { entry, change: { ...noChange(this.name), opened: [opened(entry, null)] } };
    }
    const plan = this.splitPlan(where);
    const before = this.focused?.id;
    let tab: Tab;
    if (plan) {
      tab = plan.tab;
      tab.layout.split(plan.target.id, plan.axis, id);
    } else {
      tab = new Tab(this.nextTabId++, new TabLayout(id));
      this.tabs.push(tab);
    }
    const entry = build({ kind: 'tiled', tab });
    this.panes.set(id, entry);
    this.activeTab = tab;
    this.fit(tab);
    const change: Change = {
      ...this.focusSince(before),
      opened: [opened(entry, tab.id)],
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

  /**
   * The axis `new` splits along: the pane's longer side, in cells (a cell is about twice as tall as
   * wide), as it is in the layout (a split ends a zoom, so not the zoomed size).
   */
  private longerAxis(target: E): Axis {
    const rect = this.tiledRect(target.id);
    return rect.cols >= rect.rows * 2 ? 'row' : 'column';
  }

  /** A second popup is refused (before its program starts). */
  assertNoPopup(): void {
    if (this.popupId !== undefined) {
      throw new FuxError(
        'CONFLICT',
        `workspace ${this.name} already shows a popup (pane ${this.popupId}); it closes when its program exits`,
      );
    }
  }

  /**
   * Take a pane out: the popup stops showing; a tiled pane leaves its tab, the tab goes when it
   * empties and the rest are refitted. A pane that is not there any more (killed before its
   * process ended) changes nothing.
   */
  remove(id: PaneId): Change {
    const e = this.panes.get(id);
    if (!e) return noChange(this.name);
    const before = this.focused?.id;
    this.panes.delete(id);
    if (e.placement.kind === 'popup') {
      this.popupId = undefined;
      return { ...noChange(this.name), closed: [id] };
    }
    const tab = e.placement.tab;
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
      const tab = tabOf(this.entry(target), this.name);
      const tabs = this.activeTab !== tab;
      this.activeTab = tab;
      const zoomEnds = tab.layout.zoomed !== undefined && tab.layout.zoomed !== target;
      tab.layout.focus(target);
      if (zoomEnds) this.fit(tab);
      return { ...this.focusSince(before), tabs, layout: zoomEnds };
    }
    const cur = this.focused;
    if (!cur) throw new FuxError('PRECONDITION_FAILED', `workspace ${this.name} has no focused pane`);
    const layout = tabOf(cur, this.name).layout;
    const next = layout.neighbour(cur.id, target, this.area);
    if (next === undefined) return noChange(this.name);
    const zoomEnds = layout.zoomed !== undefined;
    layout.focus(next);
    if (zoomEnds) this.fit(tabOf(cur, this.name));
    return { ...this.focusSince(before), layout: zoomEnds };
  }

  /** Zoom a pane (default the focused one) to fill its tab, focusing it, or end its zoom. */
  zoom(id: PaneId | undefined): Change {
    const e = id === undefined ? this.focused : this.entry(id);
    if (!e) throw new FuxError('PRECONDITION_FAILED', `workspace ${this.name} has no pane to zoom`);
    const tab = tabOf(e, this.name);
    const before = this.focused?.id;
    const tabs = this.activeTab !== tab;
    this.activeTab = tab;
    tab.layout.focus(e.id);
    tab.layout.toggleZoom(e.id);
    this.fit(tab);
    return {
      ...this.focusSince(before),
      tabs,
      layout: true,
      zoom: { id: e.id, zoomed: tab.layout.zoomed === e.id },
    };
  }

  /** Grow or shrink a pane along its split axis; no room to move: no change. */
  resizePane(id: PaneId, delta: number): Change {
    const tab = tabOf(this.entry(id), this.name);
    if (!tab.layout.resize(id, delta, this.area)) return noChange(this.name);
    this.fit(tab);
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

  /** Set a status segment; empty text removes it. A new one past MAX_STATUS_SEGMENTS is refused. */
  setStatus(segment: string, text: string): Change {
    if (text === '') this.status.delete(segment);
    else if (this.status.has(segment) || this.status.size < MAX_STATUS_SEGMENTS)
      this.status.set(segment, text);
    else
      throw new FuxError(
        'PRECONDITION_FAILED',
        `workspace ${this.name} has ${this.status.size} status segments, the most it keeps; remove one first (\`fux set-status NAME ''\`)`,
      );
    return { ...noChange(this.name), status: true };
  }

  /** Fit every layout, and the popup, to a new size. */
  resize(size: Size): Change {
    if (this.size.cols === size.cols && this.size.rows === size.rows) return noChange(this.name);
    this.size = { cols: size.cols, rows: size.rows };
    for (const tab of this.tabs) this.fit(tab);
    this.fitPopup();
    return { ...noChange(this.name), layout: true, resized: { ...this.size } };
  }

  /** A pane's title changed (the popup's too, though its overlay names its command). */
  retitle(id: PaneId, title: string): Change {
    if (!this.panes.has(id)) return noChange(this.name);
    return { ...noChange(this.name), title: { id, title } };
  }

  /**
   * Whether someone is looking at a pane: it is the focused pane of the active tab, or the popup
   * over it, and a client is attached to this workspace. What happens there is not news (no
   * unseen mark, no notification).
   */
  lookedAt(id: PaneId): boolean {
    return this.viewers > 0 && (this.focused?.id === id || this.popupId === id);
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
    if (previous.state !== current.state) {
      const agent = current.agent ?? null;
      this.reached.moved({ id, agent, previous: previous.state, state: current.state, ts: change.at });
    }
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
      for (const [id, rect] of tab.layout.tiledContentRects(this.area))
        if (!rects.has(id)) rects.set(id, rect);
    }
    return rects;
  }

  /** A tiled pane's content rect with no zoom: the rect a split of it divides. */
  private tiledRect(id: PaneId): Rect {
    return tabOf(this.entry(id), this.name).layout.tiledContentRects(this.area).get(id)!;
  }

  /** Resize every pty of a tab to its rect: after every structural change. */
  private fit(tab: Tab): void {
    for (const [id, r] of this.rects(tab)) this.panes.get(id)?.pane.resize(r.cols, r.rows);
  }

  private fitPopup(): void {
    const rect = this.popupRect();
    if (rect) this.popup?.pane.resize(rect.cols, rect.rows);
  }

  /** Where the popup shows now: its size clamped to the workspace, centred. */
  popupRect(): Rect | undefined {
    const placement = this.popup?.placement;
    return placement?.kind === 'popup' ? centred(this.size, popupSize(this.size, placement.want)) : undefined;
  }
}

/** What a pane's `pane.opened` event says of it (its tab id; null: the popup). */
function opened(e: Placed, tab: number | null): OpenedPane {
  return { id: e.id, tab, command: e.command, pid: e.pane.pid };
}

/**
 * A popup's size: as asked, else 80 % of the workspace; never larger than fits inside a border,
 * nor smaller than any pane may be (in a workspace too small for both, the minimum wins).
 */
export function popupSize(area: Size, want: Size | undefined): Size {
  const maxCols = Math.max(PANE_MINIMUM.cols, area.cols - 2);
  const maxRows = Math.max(PANE_MINIMUM.rows, area.rows - 2);
  const cols = want?.cols ?? Math.round(area.cols * 0.8);
  const rows = want?.rows ?? Math.round(area.rows * 0.8);
  return { cols: clamp(cols, PANE_MINIMUM.cols, maxCols), rows: clamp(rows, PANE_MINIMUM.rows, maxRows) };
}

/** `size` centred in `area`, from its top-left corner when it is the larger. */
function centred(area: Size, size: Size): Rect {
  return {
    x: Math.max(0, Math.floor((area.cols - size.cols) / 2)),
    y: Math.max(0, Math.floor((area.rows - size.rows) / 2)),
    cols: size.cols,
    rows: size.rows,
  };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
