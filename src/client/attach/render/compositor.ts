import type { AttachFrame, AttachView, PaneModes } from '../../../server/attach/protocol';
import type { Cell } from '../runs';
import { separators } from './borders';
import { Canvas, type Rect, textWidth } from './canvas';
import { statusLeft, statusRight, tabBar, type Segment } from './chrome';
import { CursorState, type CursorTarget } from './cursor';
import { FuxScreen } from './fux-screen';
import { OuterModes } from './outer-modes';
import type { TerminalOutput } from './output-sink';
import { AttachState } from './state';
import { theme } from './theme';
import { Widgets, type Overlay, type PopupFrameSpec } from './widgets';

export type { Overlay } from './widgets';
export type { TerminalOutput } from './output-sink';

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

export interface CompositorOptions {
  output: TerminalOutput;
  cols: number;
  rows: number;
}

/** Frames this big go out as one synchronized update (DECSET 2026), so the terminal never shows half of one. */
const SYNC_BYTES = 512;

/**
 * The attach client's screen: it keeps the session's mirror (AttachState), composites the view
 * (tab bar on row 0, the pane area on rows 1..rows-2, the status line on the last row; popups
 * and overlays above) and writes only what changed to the terminal. The orchestrator feeds it
 * frames and decides when to render; the compositor never reads input.
 */
export class Compositor {
  readonly state = new AttachState();
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
  private tabs: Array<{ number: number; from: number; to: number }> = [];
  /** Style id → attribute, for the current style table (dropped when the table changes). */
  private attrs: number[] = [];
  /** Something was applied or set since the last render (a render of nothing new does nothing). */
  private changed = true;
  private destroyed = false;

  constructor(options: CompositorOptions) {
    this.cols = Math.max(1, options.cols);
    this.rows = Math.max(1, options.rows);
    this.screen = new FuxScreen(options.output, this.cols, this.rows);
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

  apply(frame: AttachFrame): void {
    this.state.apply(frame);
    if (frame.reset || frame.styles) this.attrs = [];
    this.changed = true;
  }

  /**
   * Styles a history answer brought (copy mode's rows use the session's style ids; history may
   * name ids no frame has sent yet).
   */
  setStyles(styles: Record<string, string>): void {
    for (const [id, params] of Object.entries(styles)) this.state.styles.set(Number(id), params);
    this.attrs = [];
    this.changed = true;
  }

  /** The modes a pane's program asked for, as last sent (undefined: a pane the client has not seen). */
  modesOf(pane: number): PaneModes | undefined {
    return this.state.pane(pane)?.modes;
  }

  /** Composite the current state and write the difference from what the terminal shows. */
  render(): void {
    if (this.destroyed || !this.changed) return;
    this.changed = false;
    if (this.screen.recycleAttributes()) this.attrs = [];
    const canvas = new Canvas(this.screen.buffer);
    const view = this.state.view;
    // Widgets first: moving or hiding one clears where it was, which must not wipe fresh paint.
    const covers = this.widgets.layout(this.popupSpec(canvas, view), this.overlay, this.cols, this.rows);
    this.paintTabBar(canvas, view);
    this.paintArea(canvas, view);
    this.paintStatus(canvas, view);
    for (const rect of covers) canvas.splitAt(rect);
    // Screen.render renders the widgets over what was painted, then calls FuxScreen.draw.
    this.screen.render();
    let out = this.screen.takeDraw();
    out += this.cursor.update(this.cursorTarget(view), this.screen.at);
    if (out.length > SYNC_BYTES) out = `\x1b[?2026h${out}\x1b[?2026l`;
    this.screen.queue(out);
    this.screen.flush();
  }

  resize(cols: number, rows: number): void {
    if (this.destroyed) return;
    this.cols = Math.max(1, cols);
    this.rows = Math.max(1, rows);
    this.screen.resizeTo(this.cols, this.rows);
    this.changed = true;
    this.screen.flush();
  }

  /** The pane area to tell the server: the terminal less the tab bar and the status line. */
  area(): { cols: number; rows: number } {
    return { cols: this.cols, rows: Math.max(1, this.rows - 2) };
  }

  /** The pane (or popup) under screen cell (x, y), and the cell in that pane's coordinates. */
  paneAt(x: number, y: number): { pane: number; x: number; y: number } | undefined {
    const view = this.state.view;
    if (!view) return undefined;
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
    this.mode = text || undefined;
    this.changed = true;
  }

  setOverlay(overlay: Overlay | undefined): void {
    this.overlay = overlay;
    this.changed = true;
  }

  setCopyView(view: CopyView | undefined): void {
    this.copy = view;
    this.changed = true;
  }

  /** A mouse selection, in screen coordinates, shown inverse. */
  setSelection(selection: SelectionRow[] | undefined): void {
    this.selection = selection && selection.length > 0 ? selection : undefined;
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

  /** Rows 1..rows-2: the visible panes at their rects, and the separators between them. */
  private paintArea(canvas: Canvas, view: AttachView | undefined): void {
    const rows = this.rows - 2;
    if (rows <= 0) return;
    const blank = this.attrOf(0);
    if (!view || view.panes.length === 0) {
      canvas.fill({ x: 0, y: 1, cols: this.cols, rows }, blank);
      return;
    }
    // Panes and separators cover the view's area; what it does not reach (a resize the server
    // has not caught up with) is blank.
    const area = { x: 0, y: 0, cols: Math.min(this.cols, view.cols), rows: Math.min(rows, view.rows) };
    if (area.cols < this.cols) canvas.fill({ x: area.cols, y: 1, cols: this.cols - area.cols, rows }, blank);
    if (area.rows < rows)
      canvas.fill({ x: 0, y: 1 + area.rows, cols: area.cols, rows: rows - area.rows }, blank);
    for (const pane of view.panes) this.paintPane(canvas, pane.id, pane, area);
    const focused = view.panes.find((p) => p.focused);
    const border = this.screen.sgr.attr(theme.border);
    const active = this.screen.sgr.attr(theme.activeBorder);
    for (const cell of separators(area.cols, area.rows, view.panes, focused)) {
      canvas.put(cell.x, cell.y + 1, cell.active ? active : border, cell.ch);
    }
  }

  /** A pane's cells at its rect (area coordinates), clipped to `area`: the copy view's rows while in copy mode. */
  private paintPane(canvas: Canvas, id: number, rect: Rect, area: Rect): void {
    const mirror = this.state.pane(id);
    const copy = this.copy?.pane === id ? this.copy : undefined;
    const lines = copy ? copy.lines : mirror?.lines;
    const x0 = Math.max(rect.x, area.x);
    const cols = Math.min(rect.x + rect.cols, area.x + area.cols) - x0;
    if (cols <= 0) return;
    for (let r = 0; r < rect.rows; r++) {
      const ay = rect.y + r;
      if (ay < area.y || ay >= area.y + area.rows) continue;
      const row = lines?.[r];
      canvas.cells(x0, ay + 1, row, cols, this.attrOf, x0 - rect.x);
    }
    if (!copy) return;
    const right = x0 + cols;
    const inverse = (attr: number): number => this.screen.sgr.inverse(attr);
    for (const s of copy.selection) {
      if (s.y < 0 || s.y >= rect.rows) continue;
      canvas.mapAttrs(
        rect.y + s.y + 1,
        Math.max(x0, rect.x + s.from),
        Math.min(right, rect.x + s.to),
        inverse,
      );
    }
    if (copy.label) {
      const at = Math.max(x0, right - textWidth(copy.label));
      canvas.text(at, rect.y + 1, copy.label, this.screen.sgr.attr(theme.copyLabel), right);
    }
  }

  private popupSpec(canvas: Canvas, view: AttachView | undefined): PopupFrameSpec | undefined {
    const popup = view?.popup;
    if (!popup) return undefined;
    const rect = { x: popup.x, y: popup.y + 1, cols: popup.cols, rows: popup.rows };
    const mirror = () => this.state.pane(popup.id)?.lines;
    return {
      rect,
      title: popup.title,
      paint: () => {
        const lines = mirror();
        for (let r = 0; r < rect.rows; r++) {
          if (rect.y + r >= this.rows - 1) break;
          canvas.cells(rect.x, rect.y + r, lines?.[r], Math.min(rect.cols, this.cols - rect.x), this.attrOf);
        }
      },
    };
  }

  /** On top of everything: the mouse selection, inverse. */
  private paintSelection(): void {
    if (!this.selection) return;
    const canvas = new Canvas(this.screen.buffer);
    const inverse = (attr: number): number => this.screen.sgr.inverse(attr);
    for (const s of this.selection) canvas.mapAttrs(s.y, s.from, s.to, inverse);
  }

  /** Where the terminal's cursor goes: the popup's, the copy cursor, or the focused pane's; hidden under help or the picker. */
  private cursorTarget(view: AttachView | undefined): CursorTarget | undefined {
    if (!view) return undefined;
    if (this.overlay && this.overlay.kind !== 'message') return undefined;
    const areaRows = this.rows - 2;
    if (view.popup) {
      const mirror = this.state.pane(view.popup.id);
      if (!mirror || !mirror.cursor.visible) return undefined;
      return this.within(view.popup, mirror.cursor, mirror.cursor, areaRows);
    }
    const focused = view.panes.find((p) => p.focused);
    if (!focused) return undefined;
    if (this.copy?.pane === focused.id) {
      return this.within(focused, this.copy.cursor, { shape: 'block', blink: false }, areaRows);
    }
    const mirror = this.state.pane(focused.id);
    if (!mirror || !mirror.cursor.visible) return undefined;
    return this.within(focused, mirror.cursor, mirror.cursor, areaRows);
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

function inside(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.cols && y >= rect.y && y < rect.y + rect.rows;
}
