import { PassThrough } from 'node:stream';
import type { ScreenLine } from './cells';
import { diffLine, penUp, settleWideLine, type Pen, type TerminalPosition } from './draw';
import { OutputSink, type TerminalOutput } from './output-sink';
import { DEFAULT_ATTR, SgrTable } from './sgr';
import { withXtermTerminfo } from './terminfo';
import { unblessed } from './unblessed';

/** The part of unblessed's Program fux uses. */
interface ProgramHandle {
  cols: number;
  rows: number;
  _write(text: string): unknown;
  flush(): void;
}

/**
 * unblessed's Screen with the drawing done by fux. What changes from unblessed, and why:
 *
 * - Terminfo: always the `xterm-256color` entry @unblessed/core ships (see withXtermTerminfo).
 * - Cells: unblessed's packed attributes cannot hold what panes show. The buffer also holds
 *   extended attributes (see sgr.ts), and `draw` is replaced by a diffing draw (draw.ts) that
 *   writes both kinds, box-drawing characters as Unicode (never ACS `ESC ( 0`), each wide glyph
 *   once over both its cells, and nothing for an unchanged frame; it compares only the rows
 *   marked dirty, so a frame's cost follows what it changed.
 * - Output: `draw` only collects the bytes (takeDraw); the compositor adds the cursor and writes
 *   a frame in one piece. Program writes to an OutputSink, never to the real stream.
 * - Input: a dummy stream. The orchestrator owns stdin; the compositor never reads keys, and
 *   unblessed never puts the terminal in raw mode.
 * - Start-up: unblessed's `ESC[?1h ESC=` (application cursor keys and keypad) is undone by the
 *   compositor (OuterModes.enter), which then mirrors the focused pane's modes instead.
 * - Focus: none. The controller owns the keys, so unblessed's focus stack has nothing to do, and
 *   keeping it is what crashed: see focusPush.
 */
export class FuxScreen extends unblessed.Screen {
  readonly sgr = new SgrTable();
  readonly sink: OutputSink;
  /** Where the terminal's cursor is after the bytes collected so far. */
  readonly at: TerminalPosition = { x: -1, y: -1 };
  /** Runs before each draw, after the widgets rendered: what goes on top of them. */
  beforeDraw: (() => void) | undefined;
  /** Runs first when the screen is destroyed (also by unblessed's exit handler): the restore sequences. */
  beforeLeave: (() => string) | undefined;
  /** Told each row the draw compared with the terminal (tests count them). */
  onRowDiffed: ((y: number) => void) | undefined;
  private collected = '';
  private readonly pen: Pen = { at: this.at, attr: DEFAULT_ATTR };
  private readonly paramsOf = (attr: number): string => this.sgr.paramsOf(attr);

  constructor(output: TerminalOutput, cols: number, rows: number) {
    const sink = new OutputSink(output, cols, rows);
    // The Program is made here, not by Screen, because making it is what reads terminfo.
    const program: unknown = withXtermTerminfo(
      () =>
        new unblessed.Program({
          input: new PassThrough(),
          output: sink,
          terminal: 'xterm-256color',
          tput: true,
          buffer: true,
          zero: true,
        }),
    );
    super({ program, fullUnicode: true, forceUnicode: true });
    this.sink = sink;
  }

  /**
   * unblessed focuses the first element inserted while nothing has focus, and its focus handler
   * reads the element's position. The first widget (the popup frame) takes the focus; hiding it
   * when a popup closes empties the stack; the next element made (the picker's label, inserted
   * by its constructor before its position exists) is then focused half-built and the handler
   * throws. Nothing is ever focused here instead.
   */
  override focusPush(): void {
    // Deliberately nothing: see above.
  }

  get handle(): ProgramHandle {
    return this.program as ProgramHandle;
  }

  get buffer(): ScreenLine[] {
    return this.lines as ScreenLine[];
  }

  get front(): ScreenLine[] {
    return this.olines as ScreenLine[];
  }

  /**
   * unblessed calls this only from Screen.render, always for every row. Only rows marked dirty
   * are compared (as unblessed's own draw does): whatever writes into the buffer (Canvas, the
   * widgets) marks the rows it changes.
   */
  override draw(start: number, end: number): void {
    this.beforeDraw?.();
    const back = this.buffer;
    const front = this.front;
    // unblessed queues a few sequences of its own in _buf; they go first.
    let out = this._buf;
    this._buf = '';
    for (let y = Math.max(0, start); y <= end && y < back.length; y++) {
      const line = back[y]!;
      if (!line.dirty) continue;
      line.dirty = false;
      settleWideLine(line);
      out += diffLine(line, front[y]!, y, this.paramsOf, this.pen);
      this.onRowDiffed?.(y);
    }
    this.collected += out + penUp(this.pen);
  }

  /**
   * What Screen.render does when every widget is hidden (a hidden element renders nothing): the
   * draw of the rows marked dirty, without unblessed's pass over its elements and events.
   */
  drawDirtyRows(): void {
    this.draw(0, this.lines.length - 1);
  }

  /** The bytes draw collected since the last call. */
  takeDraw(): string {
    const out = this.collected;
    this.collected = '';
    return out;
  }

  /** Queue raw bytes in order with the Program's own writes (flushed by `flush`). */
  queue(text: string): void {
    if (text) this.handle._write(text);
  }

  flush(): void {
    this.handle.flush();
  }

  /** Resize the buffers (clearing the terminal): the next render repaints everything. */
  resizeTo(cols: number, rows: number): void {
    this.sink.columns = cols;
    this.sink.rows = rows;
    this.handle.cols = cols;
    this.handle.rows = rows;
    this.alloc();
  }

  override alloc(dirty?: boolean): void {
    super.alloc(dirty);
    // alloc clears the terminal (cursor home). unblessed's constructor calls it too, before
    // this class's fields exist.
    if (this.at) {
      this.at.x = -1;
      this.at.y = -1;
    }
  }

  override destroy(): void {
    const restore = this.beforeLeave?.();
    this.beforeLeave = undefined;
    this.beforeDraw = undefined;
    if (restore) this.queue(restore);
    super.destroy();
    this.handle.flush();
  }

  /**
   * Start the extended attribute table again when it is full. Call before painting a frame:
   * the front buffer's attributes no longer mean anything, so every cell of it is made to
   * differ from anything a cell can hold and the next draw rewrites them all.
   */
  recycleAttributes(): boolean {
    if (!this.sgr.full) return false;
    this.sgr.clear();
    for (const line of this.front) for (const cell of line) cell[0] = -1;
    for (const line of this.buffer) line.dirty = true;
    return true;
  }
}
