import type { Terminal } from '@xterm/headless';
import type { Pane } from '../pane';
import type { PaneId } from '../layout';
import type { Workspace } from '../workspace';
import type { AttachFrame, AttachView, PaneCursor, PaneModes, PaneUpdate, Row } from '../../protocol/attach';
import { encodeRow, StyleTable } from './rows';
import { rowChangesOf } from './row-changes';
import { trimView } from './view';

/** What the session last sent of one pane, to diff against. */
interface SentPane {
  cols: number;
  rows: number;
  /** Where the viewport was, and the moment of its rows' changes (RowChanges) the lines are from. */
  viewportY: number;
  baseY: number;
  seen: number;
  lines: string[];
  /** The first row a frame too full to take it left for the next frame; undefined: none. */
  pendingFrom: number | undefined;
  cursor: PaneCursor | undefined;
  modes: PaneModes | undefined;
}

/** A blank row as it is sent: what a client shows in a pane it has just blanked. */
const BLANK_ROW = JSON.stringify([]);

/**
 * A frame holds at most about this many bytes of view (MAX_VIEW_BYTES) and of rows and their new
 * styles (MAX_ROWS_BYTES), so that it always fits in one 1 MiB frame (DESIGN.md §5) with room for
 * the rest; rows past that go in the next frames, one frame interval apart. A workspace of
 * thousands of tabs or a screen of a different colour in every cell is then drawn in a few frames
 * instead of failing the attach.
 */
const MAX_VIEW_BYTES = 192 * 1024;
const MAX_ROWS_BYTES = 384 * 1024;

/**
 * A program that turned on synchronized output (DECSET 2026) is mid-redraw: its rows are held
 * back so the client never shows half a frame, for at most this long (a program that forgets to
 * turn the mode off must not freeze its pane).
 */
const SYNC_HOLD_MS = 200;

/**
 * Style tables grow with every new rendition a program uses; past this many the session starts a
 * fresh table with a reset frame, so a pane cycling through truecolours cannot grow it without end.
 */
const MAX_STYLES = 4096;

/**
 * One attached client's view of one workspace: which panes and rows it has been sent, and the
 * frame that brings it up to date. It never queues frames: `frame()` diffs the current state
 * against what was sent, so however long the client took to read the last one, the next is
 * everything that changed since, once.
 */
export class AttachSession {
  private styles = new StyleTable();
  private sent = new Map<PaneId, SentPane>();
  private lastView = '';
  private needsReset = true;
  private seq = 0;
  private readonly dirty = new Set<PaneId>();
  private readonly rang = new Set<PaneId>();
  private viewDirty = true;
  /** The panes the last view sent shows. */
  private shownIds: PaneId[] = [];
  private syncSince = new Map<PaneId, number>();
  private wake: (() => void) | undefined;
  /** Sends a frame in the turn a pane drew, while the frame loop waits (see `sendDirectly`). */
  private direct: (() => boolean) | undefined;
  /** The signal whose abort already wakes `changed`. */
  private watched: AbortSignal | undefined;

  constructor(
    readonly id: string,
    public workspace: string,
    readonly remote: string | null,
    public size: { cols: number; rows: number },
    /** The client's environment: panes its keys open get it, as tmux's update-environment. */
    readonly env: Record<string, string>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Something of the workspace changed (layout, focus, titles, states, status): rebuild the view. */
  markView(): void {
    this.viewDirty = true;
    this.poke();
  }

  markPane(id: PaneId): void {
    this.dirty.add(id);
    // A pane drew (an echo) while the frame loop waits: its frame can leave now, in this turn.
    // One too full to hold every row leaves the rest to the loop.
    if (this.wake !== undefined && this.direct?.() && !this.pending) return;
    this.poke();
  }

  /**
   * While the frame loop waits in `changed()`, a pane's output calls `send` before waking it:
   * `send` returns true if it has brought the client up to date itself (so there is nothing to
   * wake the loop for), false to leave the frame to the loop (pacing, backpressure, an end).
   */
  sendDirectly(send: () => boolean): void {
    this.direct = send;
  }

  markBell(id: PaneId): void {
    this.rang.add(id);
    this.poke();
  }

  /** Start over with the whole state (after switching workspace). */
  markReset(): void {
    this.needsReset = true;
    this.poke();
  }

  /** The session's style table, for replies outside frames (history) that must use the same ids. */
  get styleTable(): StyleTable {
    return this.styles;
  }

  get pending(): boolean {
    return this.needsReset || this.viewDirty || this.dirty.size > 0 || this.rang.size > 0;
  }

  /**
   * Resolves when there is something to send (at once if there already is), or when `signal`
   * aborts. The abort is listened to once per signal, not once per wait: an echo's frame is one wait.
   */
  changed(signal: AbortSignal): Promise<void> {
    if (this.pending || signal.aborted) return Promise.resolve();
    if (this.watched !== signal) {
      this.watched = signal;
      signal.addEventListener('abort', () => this.poke(), { once: true });
    }
    return new Promise<void>((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  private poke(): void {
    this.wake?.();
  }

  /**
   * The frame that brings the client up to date with `ws` as it is now, or undefined when nothing
   * changed. `view` builds the workspace as clients see it (the caller knows the config
   * and the other clients).
   */
  frame(ws: Workspace, view: () => AttachView): AttachFrame | undefined {
    const frame: AttachFrame = { seq: this.seq };
    // Not while a screen is still on its way in pieces: the reset would start it over, for ever.
    if (this.needsReset || (this.styles.size > MAX_STYLES && !this.rowsPending())) {
      frame.reset = true;
      if (this.seq === 0) frame.client = this.id;
      this.styles = new StyleTable();
      this.sent.clear();
      this.lastView = '';
      this.needsReset = false;
    }
    // The view changes only with the workspace (markView); a keystroke's echo does not rebuild it.
    let viewChanged = false;
    if (this.viewDirty || frame.reset) {
      let current = view();
      let viewJson = JSON.stringify(current);
      if (Buffer.byteLength(viewJson) > MAX_VIEW_BYTES) {
        current = trimView(current, MAX_VIEW_BYTES);
        viewJson = JSON.stringify(current);
      }
      viewChanged = viewJson !== this.lastView;
      if (viewChanged) {
        frame.view = current;
        this.lastView = viewJson;
        this.shownIds = current.panes.map((p) => p.id);
      }
    }
    this.viewDirty = false;

    const shown = new Map<PaneId, Pane>();
    for (const id of this.shownIds) {
      const e = ws.panes.get(id);
      if (e) shown.set(id, e.pane);
    }
    if (ws.popup) shown.set(ws.popup.id, ws.popup.pane);
    for (const id of this.sent.keys()) if (!shown.has(id)) this.sent.delete(id);

    const panes: Record<string, PaneUpdate> = {};
    let anyPane = false;
    const room = { bytes: MAX_ROWS_BYTES, rows: 0 };
    for (const [id, pane] of shown) {
      const known = this.sent.get(id);
      // A pane newly shown, or shown after a layout change (its size may have changed without
      // output), is looked at in full; otherwise only panes that drew.
      if (known && !viewChanged && !this.dirty.has(id)) continue;
      if (this.heldBySync(id, pane.terminal)) continue;
      if (room.bytes <= 0) {
        // This frame is full: the pane is looked at in the next one.
        this.dirty.add(id);
        continue;
      }
      this.dirty.delete(id);
      const update = this.diffPane(id, pane, known, room);
      if (update) {
        panes[String(id)] = update;
        anyPane = true;
      }
    }
    for (const id of this.dirty) if (!shown.has(id)) this.dirty.delete(id);
    if (anyPane) frame.panes = panes;
    const styles = frame.reset ? this.styles.all() : this.styles.takeFresh();
    if (styles && Object.keys(styles).length > 0) frame.styles = styles;
    if (this.rang.size > 0) {
      frame.bell = [...this.rang].filter((id) => shown.has(id));
      this.rang.clear();
      if (frame.bell.length === 0) delete frame.bell;
    }
    if (!frame.reset && !frame.view && !frame.panes && !frame.bell) return undefined;
    this.seq++;
    return frame;
  }

  /** Whether rows of a pane wait for the next frame (the last one was full). */
  private rowsPending(): boolean {
    for (const sent of this.sent.values()) if (sent.pendingFrom !== undefined) return true;
    return false;
  }

  /** Whether a pane is mid-redraw under synchronized output and still within the hold. */
  private heldBySync(id: PaneId, terminal: Terminal): boolean {
    if (!terminal.modes.synchronizedOutputMode) {
      this.syncSince.delete(id);
      return false;
    }
    const since = this.syncSince.get(id) ?? this.now();
    this.syncSince.set(id, since);
    if (this.now() - since < SYNC_HOLD_MS) {
      // Still dirty: a later frame (the one after the program ends its redraw) sends it.
      this.dirty.add(id);
      return true;
    }
    return false;
  }

  /**
   * What changed in a pane since it was last sent; its rows take from `room` (the frame's bytes
   * left, and the rows it holds), and those that do not fit wait for the next frame.
   */
  private diffPane(
    id: PaneId,
    pane: Pane,
    known: SentPane | undefined,
    room: { bytes: number; rows: number },
  ): PaneUpdate | undefined {
    const term = pane.terminal;
    const buffer = term.buffer.active;
    const cols = term.cols;
    const rows = term.rows;
    const update: PaneUpdate = {};
    let changed = false;
    const fresh = !known || known.cols !== cols || known.rows !== rows;
    const changes = rowChangesOf(term);
    const sent: SentPane = fresh
      ? {
          cols,
          rows,
          viewportY: 0,
          baseY: 0,
          seen: 0,
          lines: new Array<string>(rows).fill(BLANK_ROW),
          pendingFrom: undefined,
          cursor: undefined,
          modes: undefined,
        }
      : known;
    // Rows the terminal did not touch since the last diff are as sent, unless the viewport moved.
    const everyRow = fresh || sent.viewportY !== buffer.viewportY || sent.baseY !== buffer.baseY;
    const since = sent.seen;
    const pendingFrom = sent.pendingFrom ?? rows;
    sent.pendingFrom = undefined;
    sent.viewportY = buffer.viewportY;
    sent.baseY = buffer.baseY;
    sent.seen = changes.now();
    if (fresh) {
      update.cols = cols;
      update.rows = rows;
      changed = true;
    }
    const cell = buffer.getNullCell();
    const lines: Record<string, Row> = {};
    let anyLine = false;
    for (let y = 0; y < rows; y++) {
      if (!everyRow && y < pendingFrom && !changes.changedSince(y, since)) continue;
      const stylesBefore = this.styles.freshBytes;
      const row = encodeRow(buffer.getLine(buffer.viewportY + y), cols, cell, this.styles);
      const json = JSON.stringify(row);
      // The client has this row already: a fresh pane's blank rows are implied (it starts blank).
      if (sent.lines[y] === json) continue;
      const cost = Buffer.byteLength(json) + String(y).length + 4 + this.styles.freshBytes - stylesBefore;
      if (room.rows > 0 && cost > room.bytes) {
        // The frame is full: this row and those below it are looked at again in the next frame.
        sent.pendingFrom = y;
        this.dirty.add(id);
        room.bytes = 0;
        break;
      }
      room.bytes -= cost;
      room.rows++;
      sent.lines[y] = json;
      lines[String(y)] = row;
      anyLine = true;
    }
    if (anyLine) {
      update.lines = lines;
      changed = true;
    }
    // Compared field by field, not as JSON: an echo's frame builds no strings it does not send.
    const cursor = cursorOf(pane);
    if (!sameFields(cursor, sent.cursor)) {
      update.cursor = cursor;
      sent.cursor = cursor;
      changed = true;
    }
    const modes = modesOf(pane);
    if (!sameFields(modes, sent.modes)) {
      update.modes = modes;
      sent.modes = modes;
      changed = true;
    }
    this.sent.set(id, sent);
    return changed ? update : undefined;
  }
}

/** Whether two records of primitive fields (a cursor, the modes) hold the same values. */
function sameFields<T extends object>(a: T, b: T | undefined): boolean {
  if (b === undefined) return false;
  for (const key of Object.keys(a) as Array<keyof T>) if (a[key] !== b[key]) return false;
  return true;
}

function cursorOf(pane: Pane): PaneCursor {
  const buffer = pane.terminal.buffer.active;
  const m = pane.modes;
  return {
    x: Math.min(buffer.cursorX, pane.terminal.cols - 1),
    y: buffer.cursorY,
    // A cursor scrolled out of the viewport (the user scrolled back in the pane) is not shown.
    visible: m.cursorVisible && buffer.viewportY === buffer.baseY,
    shape: m.cursorShape,
    blink: m.cursorBlink,
  };
}

function modesOf(pane: Pane): PaneModes {
  const t = pane.terminal.modes;
  return {
    appCursor: t.applicationCursorKeysMode,
    appKeypad: t.applicationKeypadMode,
    bracketedPaste: t.bracketedPasteMode,
    mouse: t.mouseTrackingMode,
    mouseSgr: pane.modes.mouseSgr,
    focusEvents: t.sendFocusMode,
    kittyKeyboard: pane.modes.kittyFlags,
  };
}
