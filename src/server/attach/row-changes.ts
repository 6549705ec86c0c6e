import type { IDisposable, Terminal } from '@xterm/headless';

/** A range of viewport rows, inclusive; undefined means every row. */
type RowRange = { start: number; end: number } | undefined;

/**
 * The one private member of @xterm/headless read here (6.0.0, pinned by scripts/patch-xterm.js):
 * the input handler's `onRequestRefreshRows`, which xterm fires at the end of every parse with
 * the viewport rows the parse touched (the dirty-row range its own renderer redraws). Without it
 * (another version), every row counts as changed, which is slower and still right.
 */
interface WithInputHandler {
  _core?: { _inputHandler?: { onRequestRefreshRows?: (listener: (range: RowRange) => void) => IDisposable } };
}

/**
 * Which viewport rows of one terminal may have changed since a moment, so an attach frame
 * re-encodes the rows a keystroke's echo touched (one, typically) instead of every row of the
 * pane. A moment is a count of changes (`now()`); a row is stamped with the count when it changes.
 * Whatever moves rows wholesale (a scroll, a resize, a switch to or from the alternate screen, a
 * reset) stamps every row. The caller also compares the buffer's scroll position itself, which
 * catches a trim of the scrollback (it shifts rows without parsing anything).
 */
export class RowChanges {
  private count = 0;
  private everyRow = 0;
  private readonly rows: number[] = [];
  /** False when xterm does not say which rows it touched: every row is then always changed. */
  readonly precise: boolean;

  constructor(terminal: Terminal) {
    const handler = (terminal as unknown as WithInputHandler)._core?._inputHandler;
    this.precise = typeof handler?.onRequestRefreshRows === 'function';
    if (!this.precise) return;
    handler!.onRequestRefreshRows!((range) => this.touched(range));
    terminal.onScroll(() => this.touched(undefined));
    terminal.onResize(() => this.touched(undefined));
    terminal.buffer.onBufferChange(() => this.touched(undefined));
  }

  now(): number {
    return this.count;
  }

  /** Whether viewport row `y` may have changed after moment `since`. */
  changedSince(y: number, since: number): boolean {
    if (!this.precise) return true;
    return Math.max(this.everyRow, this.rows[y] ?? 0) > since;
  }

  private touched(range: RowRange): void {
    const stamp = ++this.count;
    if (range === undefined) {
      this.everyRow = stamp;
      return;
    }
    for (let y = range.start; y <= range.end; y++) this.rows[y] = stamp;
  }
}

const trackers = new WeakMap<Terminal, RowChanges>();

/** The tracker of `terminal`, made on first use (it sees changes from then on). */
export function rowChangesOf(terminal: Terminal): RowChanges {
  let tracker = trackers.get(terminal);
  if (!tracker) {
    tracker = new RowChanges(terminal);
    trackers.set(terminal, tracker);
  }
  return tracker;
}
