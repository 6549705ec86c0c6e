import type { AttachFrame, AttachView, PaneModes, ViewPane } from '../../../protocol/attach';
import type { Cell } from '../runs';
import { separators } from './borders';
import { Canvas, type Rect, textWidth } from './canvas';
import { statusLeft, statusRight, tabBar, type Segment } from './chrome';
import { CursorState, type CursorTarget } from './cursor';
import { FuxScreen } from './fux-screen';
import { OuterModes } from './outer-modes';
import type { TerminalOutput } from './output-sink';
import { predictedChar, samePrediction, type Prediction } from './prediction';
import { AttachState } from './state';
import { theme } from './theme';
import { Widgets, type Overlay, type PopupFrameSpec } from './widgets';
import { MIN_COLS, MIN_ROWS, isTooSmall, paintTooSmall, tooSmallLines } from './too-small';

export type { Overlay } from './widgets';
export type { TerminalOutput } from './output-sink';
export type { Prediction } from './prediction';

/** A row range of a selection: cells [from, to) of row y. */
export interface SelectionRow {
  y: number;
  from: number;
  to: number;
}

/** What copy mode shows in place of a pane's live rows. */
export interface CopyView {
  pane: number;
  /** Pane-height rows to show. */
  lines: Cell[][];
  cursor: { x: number; y: number };
  /** In pane coordinates. */
  selection: SelectionRow[];
  /** E.g. `[12/340]`, shown at the pane's top-right. */
  label: string;
}

/** Told what a render did, row by row (tests count rows; nothing in the client needs it). */
export interface RenderHooks {
  /** Screen row y was composited into the screen buffer (painted from the mirror or chrome). */
  rowComposited?(y: number): void;
  /** Screen row y was compared with what the terminal shows. */
  rowDiffed?(y: number): void;
}

export interface CompositorOptions {
  output: TerminalOutput;
  cols: number;
  rows: number;
  hooks?: RenderHooks;
  /** The session's mirror, which its owner applies frames to; default: one of the compositor's own. */
  state?: AttachState;
}

/**
 * Every frame that writes anything goes out as one synchronized update (DECSET 2026): the
 * terminal never shows half of one, and a frame is countable in the byte stream. Terminals that
 * do not know the mode ignore it.
 */
const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

/**
 * The attach client's screen: it draws the session's mirror (AttachState), composites the view
 * (tab bar on row 0, the pane area on rows 1..rows-2, the status line on the last row; popups
 * and overlays above) and writes only what changed to the terminal. The orchestrator applies
 * frames to the mirror, tells the compositor (`mirrored`) and decides when to render; the
 * compositor never reads input.
 */
export class Compositor {
  readonly state: AttachState;
  private readonly screen: FuxScreen;
  private readonly widgets: Widgets;
  private readonly modes = new OuterModes();
  private readonly cursor = new CursorState();
  private cols: number;
  private rows: number;
  private mode: string | undefined;
  private overlay: Overlay | undefined;
  private copy: CopyView | undefined;
  private selection: SelectionRow[] | undefined;
  private readonly predictions = new Map<number, Prediction>();
  private tabs: Array<{ number: number; from: number; to: number }> = [];
  /** Style id → attribute, for the current style table (dropped when the table changes). */
  private attrs: number[] = [];
  /** Something was applied or set since the last render (a render of nothing new does nothing). */
  private changed = true;
  /**
   * The next render composites everything (chrome, every pane row, separators, widgets): the
   * layout, an overlay, the copy view, a selection or the size changed. Otherwise a render
   * composites only the pane rows frames changed (AttachState.dirty), and the tab bar and
   * status line when they changed.
   */
  private layoutChanged = true;
  private tabBarChanged = true;
  private statusChanged = true;
  /** The panes' and popup's rects and focus as last composited (see layoutKey). */
  private layout = '';
  /** What the shown widgets cover, from the last full composite. */
  private covers: Rect[] = [];
  private readonly hooks: RenderHooks;
  private destroyed = false;
  /** The server's reason when it would not lay the workspace out at the terminal's size (see refused). */
  private refusal: string | undefined;
  /** Whether the last render drew the too-small view (leaving it repaints everything). */
  private showedTooSmall = false;

  constructor(options: CompositorOptions) {
    this.cols = Math.max(1, options.cols);
    this.rows = Math.max(1, options.rows);
    this.hooks = options.hooks ?? {};
    this.state = options.state ?? new AttachState();
    this.screen = new FuxScreen(options.output, this.cols, this.rows);
    this.screen.onRowDiffed = this.hooks.rowDiffed?.bind(this.hooks);
    this.widgets = new Widgets(this.screen);
    this.screen.beforeDraw = () => this.paintSelection();
    this.screen.beforeLeave = () => this.restoreSequences();
    this.screen.queue(this.modes.enter());
    this.screen.flush();
  }

  /** Bytes written to the output so far (benchmarks). */
  get bytesWritten(): number {
    return this.screen.sink.bytesWritten;
  }

  /** Apply a frame to the mirror and take note of it (for a compositor that owns its mirror). */
  apply(frame: AttachFrame): void {
    this.state.apply(frame);
    this.mirrored(frame);
  }

  /** The mirror has just applied `frame`: note what it changed for the next render. */
  mirrored(frame: AttachFrame): void {
    // New ids only need the cache dropped (an id looked up before it was defined); an id that
    // now means something else needs every cell repainted.
    if (frame.reset || frame.styles) this.attrs = [];
    if (frame.reset || this.state.restyled) this.layoutChanged = true;
    this.state.restyled = false;
    if (frame.view) {
      this.tabBarChanged = true;
      this.statusChanged = true;
      const layout = layoutKey(frame.view);
      if (layout !== this.layout) this.layoutChanged = true;
      this.layout = layout;
    }
    this.changed = true;
  }

  /**
   * Styles a history answer brought (copy mode's rows use the session's style ids; history may
   * name ids no frame has sent yet).
   */
  setStyles(styles: Record<string, string>): void {
    if (this.state.addStyles(styles)) this.layoutChanged = true;
    this.attrs = [];
    this.changed = true;
  }

  /**
   * Predicted echo over a pane (or the popup): `p.cells` drawn over the pane's cells at those
   * pane-local positions, underlined in the cell's colours, and the terminal cursor at
   * `p.cursor` while it shows (with the pane's cursor shape and visibility). undefined: none.
   */
  setPrediction(pane: number, p: Prediction | undefined): void {
    const old = this.predictions.get(pane);
    if (samePrediction(old, p)) return;
    for (const c of old?.cells ?? []) this.state.dirty.row(pane, c.y);
    for (const c of p?.cells ?? []) this.state.dirty.row(pane, c.y);
    if (p) this.predictions.set(pane, p);
    else this.predictions.delete(pane);
    this.changed = true;
  }

  /** The modes a pane's program asked for, as last sent (undefined: a pane the client has not seen). */
  modesOf(pane: number): PaneModes | undefined {
    return this.state.pane(pane)?.modes;
  }

  /**
   * Composite what changed and write the difference from what the terminal shows. The cost
   * follows the change: a frame that changed one row composites and compares that row only.
   */
  render(): void {
    if (this.destroyed || !this.changed) return;
    this.changed = false;
    if (this.screen.recycleAttributes()) {
      this.attrs = [];
      this.layoutChanged = true;
    }
    const canvas = new Canvas(this.screen.buffer);
    if (this.tooSmall() || this.refusal !== undefined) return this.renderTooSmall(canvas);
    if (this.showedTooSmall) {
      this.showedTooSmall = false;
      this.layoutChanged = true;
    }
    const view = this.state.view;
    // A selection is inverted in place over whatever is under it (widgets too): while one
    // shows, each render starts from a fresh composite.
    if (this.layoutChanged || this.selection) {
      // Widgets first: moving or hiding one clears where it was, which must not wipe fresh paint.
      this.covers = this.widgets.layout(this.popupSpec(view), this.overlay, this.cols, this.rows);
      this.paintTabBar(canvas, view);
      this.paintArea(canvas, view);
      this.paintStatus(canvas, view);
    } else {
      if (this.tabBarChanged) this.paintTabBar(canvas, view);
      if (this.statusChanged) this.paintStatus(canvas, view);
      this.paintChangedRows(canvas, view);
    }
    this.layoutChanged = false;
    this.tabBarChanged = false;
    this.statusChanged = false;
    this.state.dirty.clear();
    for (const rect of this.covers) canvas.splitAt(rect);
    // Screen.render renders the widgets over what was painted (each shown one repaints its
    // rect: a pane row painted under it is covered again), then calls FuxScreen.draw. With none
    // shown there is nothing to render over the paint: an echo's frame goes straight to the draw.
    if (this.covers.length > 0) this.screen.render();
    else this.screen.drawDirtyRows();
    const out = this.screen.takeDraw() + this.cursor.update(this.cursorTarget(view), this.screen.at);
    if (out !== '') this.screen.queue(SYNC_START + out + SYNC_END);
    this.screen.flush();
  }

  /**
   * In place of everything: the too-small view. Nothing else is composited and the cursor is
   * hidden; the panes come back with a full composite when the terminal is large enough.
   */
  private renderTooSmall(canvas: Canvas): void {
    // Hiding the widgets clears their rects; the view is painted over that.
    this.covers = this.widgets.layout(undefined, undefined, this.cols, this.rows);
    paintTooSmall(canvas, tooSmallLines(this.cols, this.rows, this.refusal), this.screen.sgr.attr(theme.bar));
    this.showedTooSmall = true;
    this.tabs = [];
    this.state.dirty.clear();
    this.screen.drawDirtyRows();
    const out = this.screen.takeDraw() + this.cursor.update(undefined, this.screen.at);
    if (out !== '') this.screen.queue(SYNC_START + out + SYNC_END);
    this.screen.flush();
  }

  /** Whether the terminal is below the size the client draws a workspace in (see too-small.ts). */
  tooSmall(): boolean {
    return isTooSmall(this.cols, this.rows);
  }

  /**
   * The server would not lay the workspace out at this size (`reason`), or, undefined, it did:
   * the refusal shows as the too-small view until then.
   */
  refused(reason: string | undefined): void {
    if (reason === this.refusal) return;
    this.refusal = reason;
    this.changed = true;
  }

  resize(cols: number, rows: number): void {
    if (this.destroyed) return;
    this.cols = Math.max(1, cols);
    this.rows = Math.max(1, rows);
    this.screen.resizeTo(this.cols, this.rows);
    this.changed = true;
    this.layoutChanged = true;
    this.screen.flush();
  }

  /** Draw the whole terminal again from scratch (after a fault, which may have left a frame half done). */
  repaintAll(): void {
    this.resize(this.cols, this.rows);
  }

  /**
   * The pane area to tell the server: the terminal less the tab bar and the status line, and
   * never less than the smallest the client draws in (a client that starts too small asks for
   * that; one that becomes too small asks for nothing, see tooSmall).
   */
  area(): { cols: number; rows: number } {
    return { cols: Math.max(MIN_COLS, this.cols), rows: Math.max(MIN_ROWS, this.rows) - 2 };
  }

  /** The pane (or popup) under screen cell (x, y), and the cell in that pane's coordinates. */
  paneAt(x: number, y: number): { pane: number; x: number; y: number } | undefined {
    const view = this.state.view;
    if (!view || this.showedTooSmall) return undefined;
    const ay = y - 1;
    const popup = view.popup;
    if (popup && inside(popup, x, ay)) return { pane: popup.id, x: x - popup.x, y: ay - popup.y };
    for (const pane of view.panes) {
      if (ay >= 0 && ay < this.rows - 2 && inside(pane, x, ay))
        return { pane: pane.id, x: x - pane.x, y: ay - pane.y };
    }
    return undefined;
  }

  /** The tab whose label is at screen cell (x, y) of the tab bar. */
  tabAt(x: number, y: number): number | undefined {
    if (y !== 0) return undefined;
    return this.tabs.find((t) => x >= t.from && x < t.to)?.number;
  }

  setMode(text: string | undefined): void {
    const mode = text || undefined;
    if (mode === this.mode) return;
    this.mode = mode;
    this.statusChanged = true;
    this.changed = true;
  }

  setOverlay(overlay: Overlay | undefined): void {
    this.overlay = overlay;
    this.layoutChanged = true;
    this.changed = true;
  }

  setCopyView(view: CopyView | undefined): void {
    this.copy = view;
    this.layoutChanged = true;
    this.changed = true;
  }

  /** A mouse selection, in screen coordinates, shown inverse. */
  setSelection(selection: SelectionRow[] | undefined): void {
    this.selection = selection && selection.length > 0 ? selection : undefined;
    this.layoutChanged = true;
    this.changed = true;
  }

  /** The plain text of a screen selection as last rendered: rows joined by \n, trailing blanks dropped. */
  textAt(selection: SelectionRow[]): string {
    const canvas = new Canvas(this.screen.buffer);
    return selection.map((s) => canvas.textOf(s.y, s.from, s.to).replace(/ +$/, '')).join('\n');
  }

  /** Mirror the focused pane's key modes on the outer terminal (undefined: none). */
  setKeyModes(modes: PaneModes | undefined): void {
    if (this.destroyed) return;
    this.screen.queue(this.modes.follow(modes));
    this.screen.flush();
  }

  /** Pass a raw sequence out (OSC 52, a bell) between frames. */
  write(raw: string): void {
    if (this.destroyed || raw === '') return;
    this.screen.queue(raw);
    this.screen.flush();
  }

  /** Put the terminal back as it was: modes off, cursor shown in its default shape, the main screen. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.screen.destroy();
    this.screen.sink.silence();
  }

  private restoreSequences(): string {
    return '\x1b[m' + this.modes.leave() + this.cursor.restore();
  }

  private attrOf = (style: number): number => {
    let attr = this.attrs[style];
    if (attr === undefined) {
      attr = this.screen.sgr.attr(style === 0 ? '' : (this.state.styles.get(style) ?? ''));
      this.attrs[style] = attr;
    }
    return attr;
  };

  private paintTabBar(canvas: Canvas, view: AttachView | undefined): void {
    this.hooks.rowComposited?.(0);
    const bar = this.screen.sgr.attr(theme.bar);
    canvas.fill({ x: 0, y: 0, cols: this.cols, rows: 1 }, bar);
    this.tabs = [];
    if (!view) return;
    let x = 0;
    for (const segment of tabBar(view)) {
      const from = x;
      x = canvas.text(x, 0, segment.text, this.screen.sgr.attr(segment.style));
      if (segment.tab !== undefined && x > from) this.tabs.push({ number: segment.tab, from, to: x });
      if (x >= this.cols) break;
    }
  }

  private paintStatus(canvas: Canvas, view: AttachView | undefined): void {
    const y = this.rows - 1;
    if (y < 1) return;
    this.hooks.rowComposited?.(y);
    canvas.fill({ x: 0, y, cols: this.cols, rows: 1 }, this.screen.sgr.attr(theme.bar));
    const end = this.paintSegments(canvas, 0, y, statusLeft(view, this.mode), this.cols);
    const right = statusRight(view);
    const width = right.reduce((w, s) => w + textWidth(s.text), 0);
    if (width > 0) this.paintSegments(canvas, Math.max(end, this.cols - width), y, right, this.cols);
  }

  private paintSegments(canvas: Canvas, x: number, y: number, segments: Segment[], end: number): number {
    for (const segment of segments) {
      x = canvas.text(x, y, segment.text, this.screen.sgr.attr(segment.style), end);
      if (x >= end) break;
    }
    return x;
  }

  /** The part of the view's area the screen shows (the view may lag a resize). */
  private areaOf(view: AttachView): Rect {
    return { x: 0, y: 0, cols: Math.min(this.cols, view.cols), rows: Math.min(this.rows - 2, view.rows) };
  }

  /** Rows 1..rows-2: the visible panes at their rects, and the separators between them. */
  private paintArea(canvas: Canvas, view: AttachView | undefined): void {
    const rows = this.rows - 2;
    if (rows <= 0) return;
    for (let y = 1; y <= rows; y++) this.hooks.rowComposited?.(y);
    const blank = this.attrOf(0);
    if (!view || view.panes.length === 0) {
      canvas.fill({ x: 0, y: 1, cols: this.cols, rows }, blank);
      return;
    }
    // Panes and separators cover the view's area; what it does not reach (a resize the server
    // has not caught up with) is blank.
    const area = this.areaOf(view);
    if (area.cols < this.cols) canvas.fill({ x: area.cols, y: 1, cols: this.cols - area.cols, rows }, blank);
    if (area.rows < rows)
      canvas.fill({ x: 0, y: 1 + area.rows, cols: area.cols, rows: rows - area.rows }, blank);
    for (const pane of view.panes) {
      for (let r = 0; r < pane.rows; r++) this.paintPaneRow(canvas, pane, r, area);
    }
    const focused = view.panes.find((p) => p.focused);
    const border = this.screen.sgr.attr(theme.border);
    const active = this.screen.sgr.attr(theme.activeBorder);
    for (const cell of separators(area.cols, area.rows, view.panes, focused)) {
      canvas.put(cell.x, cell.y + 1, cell.active ? active : border, cell.ch);
    }
  }

  /** Only the pane rows that frames (or a prediction) changed since the last render. */
  private paintChangedRows(canvas: Canvas, view: AttachView | undefined): void {
    if (!view || this.rows - 2 <= 0) return;
    const area = this.areaOf(view);
    for (const pane of view.panes) {
      const changed = this.state.dirty.of(pane.id);
      if (changed === undefined) continue;
      if (changed === 'all') {
        for (let r = 0; r < pane.rows; r++) this.paintPaneRow(canvas, pane, r, area);
      } else {
        for (const r of changed) if (r < pane.rows) this.paintPaneRow(canvas, pane, r, area);
      }
    }
  }

  /**
   * Row r of a pane at its rect (area coordinates), clipped to `area`: the copy view's row (its
   * selection, its label) while in copy mode, else the mirror's with any predicted echo over it.
   */
  private paintPaneRow(canvas: Canvas, pane: ViewPane, r: number, area: Rect): void {
    const ay = pane.y + r;
    if (ay < area.y || ay >= area.y + area.rows) return;
    const x0 = Math.max(pane.x, area.x);
    const right = Math.min(pane.x + pane.cols, area.x + area.cols);
    if (right <= x0) return;
    const y = ay + 1;
    this.hooks.rowComposited?.(y);
    const copy = this.copy?.pane === pane.id ? this.copy : undefined;
    const row = copy ? copy.lines[r] : this.state.pane(pane.id)?.lines[r];
    canvas.cells(x0, y, row, right - x0, this.attrOf, x0 - pane.x);
    if (!copy) {
      this.paintPrediction(canvas, pane.id, r, pane.x, y, x0, right);
      return;
    }
    for (const s of copy.selection) {
      if (s.y !== r) continue;
      canvas.mapAttrs(y, Math.max(x0, pane.x + s.from), Math.min(right, pane.x + s.to), this.inverse);
    }
    if (copy.label && r === 0) {
      const at = Math.max(x0, right - textWidth(copy.label));
      canvas.text(at, y, copy.label, this.screen.sgr.attr(theme.copyLabel), right);
    }
  }

  /** The predicted characters of row r of `pane`, whose column 0 is screen x `left`, within [from, to). */
  private paintPrediction(
    canvas: Canvas,
    pane: number,
    r: number,
    left: number,
    y: number,
    from: number,
    to: number,
  ): void {
    const prediction = this.predictions.get(pane);
    if (!prediction) return;
    for (const c of prediction.cells) {
      const x = left + c.x;
      if (c.y !== r || c.x < 0 || x < from || x >= to) continue;
      canvas.overwrite(x, y, predictedChar(c.ch), this.underline);
    }
  }

  private readonly inverse = (attr: number): number => this.screen.sgr.inverse(attr);
  private readonly underline = (attr: number): number => this.screen.sgr.underline(attr);

  /**
   * The popup's frame and content. Its Box repaints its whole rect on every render, so its
   * content is painted every render too (a popup is small).
   */
  private popupSpec(view: AttachView | undefined): PopupFrameSpec | undefined {
    const popup = view?.popup;
    if (!popup) return undefined;
    const rect = { x: popup.x, y: popup.y + 1, cols: popup.cols, rows: popup.rows };
    return {
      rect,
      title: popup.title,
      paint: () => {
        const canvas = new Canvas(this.screen.buffer);
        const lines = this.state.pane(popup.id)?.lines;
        const cols = Math.min(rect.cols, this.cols - rect.x);
        for (let r = 0; r < rect.rows; r++) {
          const y = rect.y + r;
          if (y >= this.rows - 1) break;
          canvas.cells(rect.x, y, lines?.[r], cols, this.attrOf);
          this.paintPrediction(canvas, popup.id, r, rect.x, y, rect.x, rect.x + cols);
        }
      },
    };
  }

  /** On top of everything: the mouse selection, inverse. */
  private paintSelection(): void {
    if (!this.selection) return;
    const canvas = new Canvas(this.screen.buffer);
    for (const s of this.selection) canvas.mapAttrs(s.y, s.from, s.to, this.inverse);
  }

  /** Where the terminal's cursor goes: the popup's, the copy cursor, or the focused pane's; hidden under help or the picker. */
  private cursorTarget(view: AttachView | undefined): CursorTarget | undefined {
    if (!view) return undefined;
    if (this.overlay && this.overlay.kind !== 'message') return undefined;
    const areaRows = this.rows - 2;
    if (view.popup) {
      const mirror = this.state.pane(view.popup.id);
      if (!mirror || !mirror.cursor.visible) return undefined;
      return this.within(view.popup, this.cursorOf(view.popup, mirror.cursor), mirror.cursor, areaRows);
    }
    const focused = view.panes.find((p) => p.focused);
    if (!focused) return undefined;
    if (this.copy?.pane === focused.id) {
      return this.within(focused, this.copy.cursor, { shape: 'block', blink: false }, areaRows);
    }
    const mirror = this.state.pane(focused.id);
    if (!mirror || !mirror.cursor.visible) return undefined;
    return this.within(focused, this.cursorOf(focused, mirror.cursor), mirror.cursor, areaRows);
  }

  /**
   * A pane's cursor: where a prediction puts it while one shows (kept on the pane's last column
   * when it points past it, where a terminal leaves a cursor with a wrap pending), else the server's.
   */
  private cursorOf(pane: Rect & { id: number }, server: { x: number; y: number }): { x: number; y: number } {
    const predicted = this.predictions.get(pane.id)?.cursor;
    if (!predicted) return server;
    return { x: Math.min(predicted.x, pane.cols - 1), y: predicted.y };
  }

  private within(
    rect: Rect,
    at: { x: number; y: number },
    look: { shape: CursorTarget['shape']; blink: boolean },
    areaRows: number,
  ): CursorTarget | undefined {
    if (at.x < 0 || at.y < 0 || at.x >= rect.cols || at.y >= rect.rows) return undefined;
    const x = rect.x + at.x;
    const y = rect.y + at.y;
    if (x >= this.cols || y >= areaRows) return undefined;
    return { x, y: y + 1, shape: look.shape, blink: look.blink };
  }
}

/** What decides where panes, separators and the popup are: a change of it repaints the whole area. */
function layoutKey(view: AttachView): string {
  let key = `${view.cols}x${view.rows}`;
  for (const p of view.panes) key += ` ${p.id}:${p.x},${p.y},${p.cols},${p.rows}${p.focused ? '*' : ''}`;
  const popup = view.popup;
  if (popup) key += ` popup ${popup.id}:${popup.x},${popup.y},${popup.cols},${popup.rows}:${popup.title}`;
  return key;
}

function inside(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.cols && y >= rect.y && y < rect.y + rect.rows;
}
