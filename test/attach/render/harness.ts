import { Writable } from 'node:stream';
import { Terminal, type IBufferCell } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { AttachFrame, AttachView, PaneUpdate, Row, ViewPane } from '../../../src/protocol/attach';
import { Compositor, type RenderHooks } from '../../../src/client/attach/render/compositor';

/** A terminal-like output: every byte the compositor writes, with columns and rows set. */
export class FakeTerminalOutput extends Writable {
  chunks: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    done();
  }
  /** What was written since the last take. */
  take(): string {
    const out = this.chunks.join('');
    this.chunks = [];
    return out;
  }
}

/** What the emulated terminal reports of the sequences it parsed that xterm does not expose. */
export interface Observed {
  cursorShape: number | undefined;
  cursorVisible: boolean;
  kitty: number[];
  sync: number;
}

/**
 * The compositor writing into a real xterm (headless, unicode 11): tests assert the cells the
 * user's terminal would show.
 */
export class Harness {
  readonly output: FakeTerminalOutput;
  readonly term: Terminal;
  readonly compositor: Compositor;
  readonly observed: Observed = { cursorShape: undefined, cursorVisible: true, kitty: [], sync: 0 };
  private pending = Promise.resolve();
  /** Every byte written, in order. */
  written = '';

  constructor(cols: number, rows: number, hooks?: RenderHooks) {
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    const unicode = new Unicode11Addon();
    this.term.loadAddon(unicode);
    this.term.unicode.activeVersion = '11';
    const parser = this.term.parser;
    parser.registerCsiHandler({ intermediates: ' ', final: 'q' }, (params) => {
      this.observed.cursorShape = typeof params[0] === 'number' ? params[0] : 0;
      return false;
    });
    parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => this.decset(params, true));
    parser.registerCsiHandler({ prefix: '?', final: 'l' }, (params) => this.decset(params, false));
    parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => {
      this.observed.kitty.push(typeof params[0] === 'number' ? params[0] : 0);
      return true;
    });
    parser.registerCsiHandler({ prefix: '<', final: 'u' }, () => {
      this.observed.kitty.pop();
      return true;
    });
    this.output = new FakeTerminalOutput(cols, rows);
    this.output.on('data', () => undefined);
    this.compositor = new Compositor({ output: this.output, cols, rows, hooks });
  }

  /** Feed what the compositor wrote since the last call into the terminal; resolves once parsed. Returns the bytes. */
  async settle(): Promise<string> {
    const out = this.output.take();
    this.written += out;
    this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(out, resolve)));
    await this.pending;
    return out;
  }

  /** apply + render + settle. */
  async frame(frame: AttachFrame): Promise<string> {
    this.compositor.apply(frame);
    this.compositor.render();
    return this.settle();
  }

  async render(): Promise<string> {
    this.compositor.render();
    return this.settle();
  }

  /** Row y's text, trailing blanks dropped. */
  line(y: number): string {
    return (this.term.buffer.active.getLine(y)?.translateToString(true) ?? '').trimEnd();
  }

  cell(x: number, y: number): IBufferCell {
    const cell = this.term.buffer.active.getLine(y)?.getCell(x);
    if (!cell) throw new Error(`no cell ${x},${y}`);
    return cell;
  }

  get cursor(): { x: number; y: number } {
    return { x: this.term.buffer.active.cursorX, y: this.term.buffer.active.cursorY };
  }

  dispose(): void {
    this.compositor.destroy();
    this.term.dispose();
  }

  private decset(params: (number | number[])[], on: boolean): boolean {
    for (const p of params) {
      const mode = typeof p === 'number' ? p : p[0];
      if (mode === 25) this.observed.cursorVisible = on;
      if (mode === 2026 && on) this.observed.sync++;
    }
    return false;
  }
}

/** A frame's bytes as the compositor writes them: one synchronized update (DECSET 2026). */
export function synced(bytes: string): string {
  return `\x1b[?2026h${bytes}\x1b[?2026l`;
}

/** A pane of the view; the rest of a ViewPane filled in. */
export function viewPane(
  p: Partial<ViewPane> & Pick<ViewPane, 'id' | 'x' | 'y' | 'cols' | 'rows'>,
): ViewPane {
  return {
    focused: false,
    title: `pane ${p.id}`,
    command: 'sh',
    agent: null,
    state: 'none',
    unseen: false,
    ...p,
  };
}

/** A view of one tab with these panes in a `cols` × `rows` area. */
export function makeView(
  cols: number,
  rows: number,
  panes: ViewPane[],
  extra: Partial<AttachView> = {},
): AttachView {
  return {
    workspace: 'main',
    workspaces: ['main'],
    cols,
    rows,
    tabs: [{ number: 1, title: 'sh', panes: panes.length, active: true, state: 'none', unseen: false }],
    panes,
    zoomed: false,
    status: [],
    popup: null,
    keys: { prefix: 'C-a', bindings: {} },
    clients: 1,
    ...extra,
  };
}

/** A pane update whose rows are plain text in the default style. */
export function textRows(rows: string[], extra: Partial<PaneUpdate> = {}): PaneUpdate {
  const lines: Record<string, Row> = {};
  rows.forEach((text, i) => (lines[String(i)] = text ? [[0, text]] : []));
  return { lines, ...extra };
}

export const hidden = { x: 0, y: 0, visible: false, shape: 'block', blink: false } as const;

const P16 = 0x1000000;
const P256 = 0x2000000;
const RGB = 0x3000000;

function colour(mode: number, value: number): string {
  if (mode === RGB) return `rgb(${(value >> 16) & 255},${(value >> 8) & 255},${value & 255})`;
  if (mode === P256) return `256:${value}`;
  if (mode === P16) return `16:${value}`;
  return 'default';
}

/** A cell's rendition as the terminal holds it, for assertions. */
export function look(cell: IBufferCell): { fg: string; bg: string; attrs: string[] } {
  const attrs: string[] = [];
  if (cell.isBold()) attrs.push('bold');
  if (cell.isDim()) attrs.push('dim');
  if (cell.isItalic()) attrs.push('italic');
  if (cell.isUnderline()) attrs.push('underline');
  if (cell.isBlink()) attrs.push('blink');
  if (cell.isInverse()) attrs.push('inverse');
  if (cell.isInvisible()) attrs.push('invisible');
  if (cell.isStrikethrough()) attrs.push('strikethrough');
  if (cell.isOverline()) attrs.push('overline');
  return {
    fg: colour(cell.getFgColorMode(), cell.getFgColor()),
    bg: colour(cell.getBgColorMode(), cell.getBgColor()),
    attrs,
  };
}
