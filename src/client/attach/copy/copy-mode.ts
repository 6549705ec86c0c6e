/**
 * Copy mode, as tmux's vi copy mode: a cursor over a snapshot of a pane's history (the pane keeps
 * running), a viewport that follows it, selection by keys or by dragging, search, and a yank that
 * hands back the selected text (the client sends it out as OSC 52).
 *
 * Keys: h j k l and the arrows, w b e, 0 ^ $, g G, C-u C-d (half a page), C-b C-f PageUp PageDown
 * (a page), C-y C-e (a line), H M L; a count before a motion repeats it (`5j`). v or Space starts
 * or stops a selection, V selects whole rows; y or Enter yanks and leaves. / and ? search forward
 * and backward (type, Enter runs, Esc cancels), n N repeat. q, Esc or C-c leave. The wheel scrolls
 * three rows; a click moves the cursor, a drag selects (mouse cells are pane-local: the caller
 * takes the pane's origin off).
 */
import type { AttachHistory } from '../../../protocol/attach';
import type { KeyName } from '../input/keys';
import type { KeyToken, MouseToken, Token } from '../input/tokens';
import { expandRow, type Cell } from '../runs';
import { GridSearch, type SearchDirection } from './search';
import { selectedRanges, selectedText, type Selection } from './selection';
import { TextGrid, type Point } from './text-grid';
import { nextWordStart, prevWordStart, wordEnd } from './words';

export interface CopyModeOptions {
  /** The pane's rows, oldest first: history, then the screen (each expanded to `cols` cells). */
  lines: readonly Cell[][];
  /** Index in `lines` of the screen's first row. */
  screenTop: number;
  cols: number;
  /** Rows of the viewport (the pane's height). */
  height: number;
  /** The pane's live cursor, in screen cells; copy mode starts there. */
  cursor?: { x: number; y: number };
  /**
   * Leave when scrolling reaches the bottom again, as tmux's `copy-mode -e`: for copy mode
   * entered by scrolling the wheel up over a pane.
   */
  exitAtBottom?: boolean;
}

export interface CopyResult {
  /** The view changed. */
  redraw: boolean;
  /** Text to copy (to the clipboard, by OSC 52). */
  yank?: string;
  /** Copy mode is over. */
  exit?: boolean;
}

export interface CopyView {
  /** The viewport's rows (shared with the model: do not change them). */
  lines: Cell[][];
  /** In viewport cells. */
  cursor: { x: number; y: number };
  /** Selected cells per viewport row: `from` up to but not including `to`. */
  selection: Array<{ y: number; from: number; to: number }>;
  /** `[rows above the bottom/rows of history]`, the search prompt, or a search's outcome. */
  label: string;
}

/** Rows the wheel scrolls per notch. */
export const WHEEL_ROWS = 3;

const NOTHING: CopyResult = { redraw: false };
const REDRAW: CopyResult = { redraw: true };

export class CopyMode {
  private readonly grid: TextGrid;
  private readonly search: GridSearch;
  private height: number;
  private top: number;
  private cursor: Point;
  /** The column vertical moves aim for (vi's "curswant"). */
  private wantCol: number;
  private selection: Selection | undefined;
  private count = '';
  private prompt: { direction: SearchDirection; query: string } | undefined;
  private lastSearch: { direction: SearchDirection; query: string } | undefined;
  private message: string | undefined;
  /** Where a left-button press landed, for a drag to select from. */
  private pressedAt: Point | undefined;
  private readonly exitAtBottom: boolean;

  constructor(options: CopyModeOptions) {
    this.grid = new TextGrid(options.lines, Math.max(1, options.cols));
    this.search = new GridSearch(this.grid);
    this.height = Math.max(1, options.height);
    this.exitAtBottom = options.exitAtBottom === true;
    this.top = this.maxTop();
    const live = options.cursor;
    const row = live ? options.screenTop + live.y : this.grid.length - 1;
    this.cursor = this.clampPoint({ row, col: live ? live.x : 0 });
    this.wantCol = this.cursor.col;
    this.follow();
  }

  /** Copy mode over the history the server sent for a pane. */
  static fromHistory(history: AttachHistory, height: number, cursor?: { x: number; y: number }): CopyMode {
    return new CopyMode({
      lines: history.lines.map((row) => expandRow(row, history.cols)),
      screenTop: history.screenTop,
      cols: history.cols,
      height,
      cursor,
    });
  }

  /** The pane's height changed. */
  resize(height: number): void {
    this.height = Math.max(1, height);
    this.top = Math.min(this.top, this.maxTop());
    this.follow();
  }

  /**
   * Scrolls the view by `rows` (negative: up, into the history), as the wheel does; the cursor
   * stays on its row unless that leaves the view.
   */
  scroll(rows: number): CopyResult {
    const moved = this.scrollView(rows);
    if (this.exitAtBottom && rows > 0 && this.top === this.maxTop())
      return { redraw: moved.redraw, exit: true };
    return moved;
  }

  /** The cursor in history rows (row 0 is the oldest). */
  position(): Point {
    return { ...this.cursor };
  }

  handle(token: Token): CopyResult {
    if (token.kind === 'mouse') return this.mouse(token);
    if (token.kind === 'paste' && this.prompt) {
      this.prompt.query += token.text.replace(/[\r\n]+/g, ' ');
      return REDRAW;
    }
    if (token.kind !== 'key' || !token.key || token.event === 'release') return NOTHING;
    const hadMessage = this.message !== undefined;
    this.message = undefined;
    const result = this.prompt ? this.promptKey(token.key) : this.key(token);
    return hadMessage && !result.redraw ? REDRAW : result;
  }

  view(): CopyView {
    const lines: Cell[][] = [];
    for (let y = 0; y < this.height; y++)
      lines.push(this.grid.rows[this.top + y] ?? blankRow(this.grid.cols));
    const selection = this.selection
      ? selectedRanges(this.grid, this.selection, this.cursor)
          .filter((r) => r.row >= this.top && r.row < this.top + this.height)
          .map((r) => ({ y: r.row - this.top, from: r.from, to: r.to }))
      : [];
    return {
      lines,
      cursor: { x: this.cursor.col, y: this.cursor.row - this.top },
      selection,
      label: this.label(),
    };
  }

  private label(): string {
    if (this.prompt) return `${this.prompt.direction === 'forward' ? '/' : '?'}${this.prompt.query}`;
    if (this.message !== undefined) return this.message;
    return this.positionLabel();
  }

  private positionLabel(): string {
    const max = this.maxTop();
    return `[${max - this.top}/${max}]`;
  }

  private key(token: KeyToken): CopyResult {
    const key = token.key!;
    const name = plainName(key);
    if (name !== undefined && /^[0-9]$/.test(name) && (name !== '0' || this.count !== '')) {
      this.count = (this.count + name).slice(-4);
      return NOTHING;
    }
    const times = Math.max(1, Number(this.count || '1'));
    this.count = '';
    const ctrl = ctrlLetter(key);
    if (ctrl !== undefined) return this.ctrlKey(ctrl, times);
    if (name === undefined) return NOTHING;
    const motion = this.motion(name);
    if (motion) {
      for (let i = 0; i < times; i++) motion();
      this.follow();
      return REDRAW;
    }
    return this.command(name, times);
  }

  /** Motions that a count repeats; undefined for other keys. */
  private motion(name: string): (() => void) | undefined {
    const g = this.grid;
    switch (name) {
      case 'h':
      case 'Left':
      case 'BSpace':
        return () => this.moveTo({ row: this.cursor.row, col: g.snap(this.cursor.row, this.cursor.col - 1) });
      case 'l':
      case 'Right':
        return () => {
          const next = this.cursor.col + Math.max(1, g.cell(this.cursor).width);
          if (next < g.cols) this.moveTo({ row: this.cursor.row, col: next });
        };
      case 'j':
      case 'Down':
        return () => this.moveRows(1);
      case 'k':
      case 'Up':
        return () => this.moveRows(-1);
      case 'w':
        return () => this.moveTo(nextWordStart(g, this.cursor));
      case 'b':
        return () => this.moveTo(prevWordStart(g, this.cursor));
      case 'e':
        return () => this.moveTo(wordEnd(g, this.cursor));
    }
    return undefined;
  }

  private command(name: string, times: number): CopyResult {
    const g = this.grid;
    const row = this.cursor.row;
    switch (name) {
      case '0':
      case 'Home':
        return this.jump({ row, col: 0 });
      case '^':
        return this.jump({ row, col: g.firstNonBlank(row) });
      case '$':
      case 'End':
        return this.jump({ row, col: g.lastNonBlank(row) });
      case 'g':
        return this.jump({ row: 0, col: 0 });
      case 'G':
        return this.jump({ row: g.length - 1, col: g.lastNonBlank(g.length - 1) });
      case 'H':
        return this.jump({ row: this.top, col: this.wantCol }, true);
      case 'M':
        return this.jump(
          { row: this.top + Math.floor((this.visibleRows() - 1) / 2), col: this.wantCol },
          true,
        );
      case 'L':
        return this.jump({ row: this.top + this.visibleRows() - 1, col: this.wantCol }, true);
      case 'PageUp':
        return this.scrollWithCursor(-this.height * times);
      case 'PageDown':
        return this.scrollWithCursor(this.height * times);
      case 'v':
      case 'Space':
        this.selection =
          this.selection?.mode === 'char' ? undefined : { anchor: this.anchor(), mode: 'char' };
        return REDRAW;
      case 'V':
        this.selection =
          this.selection?.mode === 'line' ? undefined : { anchor: this.anchor(), mode: 'line' };
        return REDRAW;
      case 'y':
      case 'Enter':
        return this.yank();
      case '/':
        this.prompt = { direction: 'forward', query: '' };
        return REDRAW;
      case '?':
        this.prompt = { direction: 'backward', query: '' };
        return REDRAW;
      case 'n':
      case 'N':
        return this.repeatSearch(name === 'N', times);
      case 'q':
      case 'Escape':
        return { redraw: false, exit: true };
    }
    return NOTHING;
  }

  private ctrlKey(letter: string, times: number): CopyResult {
    const half = Math.max(1, Math.floor(this.height / 2));
    switch (letter) {
      case 'u':
        return this.scrollWithCursor(-half * times);
      case 'd':
        return this.scrollWithCursor(half * times);
      case 'b':
        return this.scrollWithCursor(-this.height * times);
      case 'f':
        return this.scrollWithCursor(this.height * times);
      case 'y':
        return this.scrollView(-times);
      case 'e':
        return this.scrollView(times);
      case 'c':
        return { redraw: false, exit: true };
    }
    return NOTHING;
  }

  private promptKey(key: KeyName): CopyResult {
    const prompt = this.prompt!;
    if (ctrlLetter(key) === 'u') {
      prompt.query = '';
      return REDRAW;
    }
    if (key.name === 'Escape' || ctrlLetter(key) === 'c') {
      this.prompt = undefined;
      return REDRAW;
    }
    if (key.name === 'Enter' && !key.ctrl && !key.alt) {
      this.prompt = undefined;
      const query = prompt.query || this.lastSearch?.query;
      if (!query) return REDRAW;
      this.lastSearch = { direction: prompt.direction, query };
      this.runSearch(query, prompt.direction);
      return REDRAW;
    }
    if (key.name === 'BSpace') {
      prompt.query = [...prompt.query].slice(0, -1).join('');
      return REDRAW;
    }
    const name = plainName(key);
    if (name === undefined) return NOTHING;
    if (name === 'Space') prompt.query += ' ';
    else if ([...name].length === 1) prompt.query += name;
    else return NOTHING;
    return REDRAW;
  }

  private repeatSearch(reverse: boolean, times: number): CopyResult {
    if (!this.lastSearch) {
      this.message = 'no previous search';
      return REDRAW;
    }
    const { query, direction } = this.lastSearch;
    const way: SearchDirection = reverse ? (direction === 'forward' ? 'backward' : 'forward') : direction;
    for (let i = 0; i < times; i++) if (!this.runSearch(query, way)) break;
    return REDRAW;
  }

  /** Moves to the next match; says so when there is none or the search wrapped. */
  private runSearch(query: string, direction: SearchDirection): boolean {
    const found = this.search.find(query, this.cursor, direction);
    if (!found) {
      this.message = `not found: ${query}`;
      return false;
    }
    this.moveTo(found.at);
    this.follow();
    if (found.wrapped) this.message = `${this.positionLabel()} search wrapped`;
    return true;
  }

  private yank(): CopyResult {
    if (!this.selection) return { redraw: false, exit: true };
    const text = selectedText(this.grid, selectedRanges(this.grid, this.selection, this.cursor));
    return { redraw: false, exit: true, yank: text };
  }

  private mouse(token: MouseToken): CopyResult {
    if (token.wheel === 'up' || token.wheel === 'down') {
      if (token.action !== 'press') return NOTHING;
      return this.scroll(token.wheel === 'up' ? -WHEEL_ROWS : WHEEL_ROWS);
    }
    if (token.button !== 0) return NOTHING;
    // Dragging past the top or bottom edge scrolls a row at a time.
    if (token.action === 'motion' && token.y < 0) this.top = Math.max(0, this.top - 1);
    if (token.action === 'motion' && token.y >= this.height) this.top = Math.min(this.maxTop(), this.top + 1);
    const y = Math.max(0, Math.min(token.y, this.visibleRows() - 1));
    const at = this.clampPoint({ row: this.top + y, col: token.x });
    if (token.action === 'press') {
      this.selection = undefined;
      this.pressedAt = at;
      this.moveTo(at);
      return REDRAW;
    }
    if (token.action === 'motion') {
      if (!this.selection) this.selection = { anchor: this.pressedAt ?? { ...this.cursor }, mode: 'char' };
      this.moveTo(at);
      this.follow();
      return REDRAW;
    }
    this.pressedAt = undefined;
    return NOTHING;
  }

  private anchor(): Point {
    return this.selection ? this.selection.anchor : { ...this.cursor };
  }

  private jump(to: Point, keepWant = false): CopyResult {
    const want = this.wantCol;
    this.moveTo(to);
    if (keepWant) this.wantCol = want;
    this.follow();
    return REDRAW;
  }

  private moveTo(p: Point): void {
    this.cursor = this.clampPoint(p);
    this.wantCol = this.cursor.col;
  }

  private moveRows(delta: number): void {
    const row = Math.max(0, Math.min(this.grid.length - 1, this.cursor.row + delta));
    this.cursor = { row, col: this.grid.snap(row, this.wantCol) };
  }

  /** Page and half-page moves: the view and the cursor move together. */
  private scrollWithCursor(delta: number): CopyResult {
    this.top = Math.max(0, Math.min(this.maxTop(), this.top + delta));
    this.moveRows(delta);
    this.follow();
    return REDRAW;
  }

  /** The view moves; the cursor stays on its row unless that leaves the view. */
  private scrollView(delta: number): CopyResult {
    const top = Math.max(0, Math.min(this.maxTop(), this.top + delta));
    if (top === this.top) return NOTHING;
    this.top = top;
    const row = Math.max(top, Math.min(top + this.visibleRows() - 1, this.cursor.row));
    if (row !== this.cursor.row) this.cursor = { row, col: this.grid.snap(row, this.wantCol) };
    return REDRAW;
  }

  /** Scrolls so the cursor is in view. */
  private follow(): void {
    if (this.cursor.row < this.top) this.top = this.cursor.row;
    if (this.cursor.row >= this.top + this.height) this.top = this.cursor.row - this.height + 1;
  }

  private maxTop(): number {
    return Math.max(0, this.grid.length - this.height);
  }

  private visibleRows(): number {
    return Math.min(this.height, this.grid.length - this.top);
  }

  private clampPoint(p: Point): Point {
    const row = Math.max(0, Math.min(this.grid.length - 1, p.row));
    return { row, col: this.grid.snap(row, p.col) };
  }
}

/** The key's name when it has no Ctrl, Alt or Super. */
function plainName(key: KeyName): string | undefined {
  return key.ctrl || key.alt || key.super ? undefined : key.name;
}

/** The letter of a Ctrl-letter key (`C-u` → `u`). */
function ctrlLetter(key: KeyName): string | undefined {
  return key.ctrl && !key.alt && /^[a-z]$/.test(key.name) ? key.name : undefined;
}

function blankRow(cols: number): Cell[] {
  return expandRow([], cols);
}
