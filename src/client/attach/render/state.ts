import {
  DEFAULT_MODES,
  type AttachEnd,
  type AttachFrame,
  type AttachView,
  type PaneCursor,
  type PaneModes,
  type PaneUpdate,
} from '../../../protocol/attach';
import { blankCell, expandRow, type Cell } from '../runs';
import { DirtyRows } from './dirty';

/** What the client holds of one pane: its viewport cells, cursor and input modes. */
export interface PaneMirror {
  cols: number;
  rows: number;
  /** Exactly `rows` rows of exactly `cols` cells (see expandRow). */
  lines: Cell[][];
  cursor: PaneCursor;
  modes: PaneModes;
}

export const DEFAULT_CURSOR: Readonly<PaneCursor> = Object.freeze({
  x: 0,
  y: 0,
  visible: true,
  shape: 'block',
  blink: false,
});

/**
 * The client's mirror of an attach session: frames applied in order, exactly as
 * src/protocol/attach.ts defines them. The server diffs against what it sent this
 * client, so the mirror keeps every pane it was told about (a pane of another tab comes back
 * without being resent) until a reset.
 */
export class AttachState {
  view: AttachView | undefined;
  /** Style id → SGR parameters (0, the default rendition, is never in the table). */
  readonly styles = new Map<number, string>();
  /** This attachment's id, from the first frame. */
  client: string | undefined;
  seq = -1;
  /** Why the session ended, once the server said so. */
  ended: AttachEnd | undefined;
  /**
   * Pane rows that frames changed since the compositor last painted them (it clears this);
   * a cursor or modes update changes no row.
   */
  readonly dirty = new DirtyRows();
  /** A frame gave a known style id other parameters since the compositor last looked (it clears this). */
  restyled = false;
  private readonly panes = new Map<number, PaneMirror>();

  apply(frame: AttachFrame): void {
    this.seq = frame.seq;
    if (frame.client !== undefined) this.client = frame.client;
    if (frame.reset) {
      this.panes.clear();
      this.styles.clear();
      this.view = undefined;
      this.dirty.forget();
    }
    if (frame.view) this.view = frame.view;
    if (frame.styles && this.addStyles(frame.styles)) this.restyled = true;
    if (frame.panes) {
      for (const [id, update] of Object.entries(frame.panes)) this.applyPane(Number(id), update);
    }
    if (frame.end !== undefined) this.ended = frame.end;
  }

  pane(id: number): PaneMirror | undefined {
    return this.panes.get(id);
  }

  /**
   * Adds styles to the table (a frame's, or a history answer's). Returns whether an id already
   * known now means something else: cells drawn with it are stale, and all must be repainted.
   */
  addStyles(styles: Record<string, string>): boolean {
    let redefined = false;
    for (const [key, params] of Object.entries(styles)) {
      const id = Number(key);
      const old = this.styles.get(id);
      if (old !== undefined && old !== params) redefined = true;
      this.styles.set(id, params);
    }
    return redefined;
  }

  private applyPane(id: number, update: PaneUpdate): void {
    let pane = this.panes.get(id);
    if (!pane) {
      const rect = this.rectOf(id);
      pane = {
        cols: update.cols ?? rect?.cols ?? 0,
        rows: update.rows ?? rect?.rows ?? 0,
        lines: [],
        cursor: { ...DEFAULT_CURSOR },
        modes: { ...DEFAULT_MODES },
      };
      pane.lines = blankRows(pane.rows, pane.cols);
      this.panes.set(id, pane);
      this.dirty.pane(id);
    } else if (
      (update.cols !== undefined && update.cols !== pane.cols) ||
      (update.rows !== undefined && update.rows !== pane.rows)
    ) {
      resizePane(pane, update.cols ?? pane.cols, update.rows ?? pane.rows);
      this.dirty.pane(id);
    }
    if (update.lines) {
      for (const [index, row] of Object.entries(update.lines)) {
        const y = Number(index);
        if (Number.isInteger(y) && y >= 0 && y < pane.rows) {
          pane.lines[y] = expandRow(row, pane.cols);
          this.dirty.row(id, y);
        }
      }
    }
    if (update.cursor) pane.cursor = update.cursor;
    if (update.modes) pane.modes = update.modes;
  }

  /** A pane's size before the server has said it: its rect in the view (a pane or the popup). */
  private rectOf(id: number): { cols: number; rows: number } | undefined {
    const view = this.view;
    if (!view) return undefined;
    if (view.popup && view.popup.id === id) return view.popup;
    return view.panes.find((p) => p.id === id);
  }
}

function blankRows(rows: number, cols: number): Cell[][] {
  const lines: Cell[][] = [];
  for (let y = 0; y < rows; y++) lines.push(blankRow(cols));
  return lines;
}

function blankRow(cols: number): Cell[] {
  return new Array<Cell>(cols).fill(blankCell());
}

/** Keeps what still fits (the server resends the rows that changed); a wide glyph cut in half becomes a blank. */
function resizePane(pane: PaneMirror, cols: number, rows: number): void {
  const lines: Cell[][] = [];
  for (let y = 0; y < rows; y++) {
    const old = pane.lines[y];
    if (!old) {
      lines.push(blankRow(cols));
      continue;
    }
    const row = old.slice(0, cols);
    while (row.length < cols) row.push(blankCell());
    const last = row[cols - 1];
    if (last && last.width === 2) row[cols - 1] = { ch: ' ', width: 1, style: last.style };
    lines.push(row);
  }
  pane.cols = cols;
  pane.rows = rows;
  pane.lines = lines;
}
