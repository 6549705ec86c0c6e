import type { IBufferCell, IBufferLine } from '@xterm/headless';
import { isDefaultStyle, sgrFor, styleOf } from '../pane/cell-style';
import type { Row, Run } from '../../protocol/attach';

const SPACE = 0x20;

/**
 * The styles one attach session has been told about. Ids are stable for the session, so a row
 * that did not change encodes to the same runs and the diff can compare strings.
 */
export class StyleTable {
  private readonly ids = new Map<string, number>();
  private fresh: Record<string, string> = {};
  private hasFresh = false;
  private freshJsonBytes = 0;

  /** The id of an SGR parameter string ('' is the default rendition, id 0). */
  id(params: string): number {
    if (params === '') return 0;
    let id = this.ids.get(params);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(params, id);
      const key = String(id);
      this.fresh[key] = params;
      this.hasFresh = true;
      // `"id":"params",` in the frame's `styles` (SGR parameters are ASCII).
      this.freshJsonBytes += key.length + params.length + 6;
    }
    return id;
  }

  /** About how many bytes of JSON the styles not yet taken make: a frame counts them in its size. */
  get freshBytes(): number {
    return this.freshJsonBytes;
  }

  /** Styles created since the last call: they go out in the frame that first uses them. */
  takeFresh(): Record<string, string> | undefined {
    if (!this.hasFresh) return undefined;
    const out = this.fresh;
    this.clearFresh();
    return out;
  }

  /** Everything, for a reset frame. */
  all(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [params, id] of this.ids) out[String(id)] = params;
    this.clearFresh();
    return out;
  }

  private clearFresh(): void {
    this.fresh = {};
    this.hasFresh = false;
    this.freshJsonBytes = 0;
  }

  /** The SGR parameters of the given ids (0, the default, is left out). */
  describe(ids: Iterable<number>): Record<string, string> {
    const byId = new Map<number, string>();
    for (const [params, id] of this.ids) byId.set(id, params);
    const out: Record<string, string> = {};
    for (const id of ids) {
      const params = byId.get(id);
      if (params !== undefined) out[String(id)] = params;
    }
    return out;
  }

  get size(): number {
    return this.ids.size;
  }
}

/** SGR parameters of a cell's rendition, without the leading reset (`sgrFor` writes `ESC[0;…m`). */
function paramsOf(cell: IBufferCell): string {
  if (cell.isAttributeDefault()) return '';
  const style = styleOf(cell);
  if (isDefaultStyle(style)) return '';
  // `\x1b[0;1;31m` → `1;31`
  return sgrFor(style).slice(4, -1);
}

/**
 * The style id of each cell in turn. Neighbouring cells mostly share a rendition, so the SGR
 * string is built only when the rendition differs from the previous cell's.
 */
class CellStyles {
  private fg = 0;
  private bg = 0;
  private flags = 0;
  private last = 0;

  constructor(private readonly styles: StyleTable) {}

  of(cell: IBufferCell): number {
    if (cell.isAttributeDefault()) return 0;
    const style = styleOf(cell);
    if (style.fg === this.fg && style.bg === this.bg && style.flags === this.flags) return this.last;
    this.fg = style.fg;
    this.bg = style.bg;
    this.flags = style.flags;
    this.last = isDefaultStyle(style) ? 0 : this.styles.id(sgrFor(style).slice(4, -1));
    return this.last;
  }
}

/**
 * One terminal row as runs (protocol.ts): consecutive narrow single-code-point cells of one style
 * share a run; a wide or multi-code-point cell is a run of its own with its width. Trailing blank
 * cells in the default style are left out.
 */
export function encodeRow(
  line: IBufferLine | undefined,
  cols: number,
  cell: IBufferCell,
  styles: StyleTable,
): Row {
  if (!line) return [];
  const width = Math.min(cols, line.length);
  const end = lastShownCell(line, width, cell) + 1;
  const row: Run[] = [];
  const ids = new CellStyles(styles);
  let text = '';
  let style = -1;
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    const w = cell.getWidth();
    if (w === 0) continue; // the right half of a wide glyph
    const id = ids.of(cell);
    const code = cell.getCode();
    const chars = code === 0 ? ' ' : cell.getChars();
    const single = w === 1 && (code < 0x10000 ? chars.length === 1 : chars.length === 2);
    if (!single) {
      if (text) row.push([style, text]);
      text = '';
      style = -1;
      row.push([id, chars, w === 2 ? 2 : 1]);
      continue;
    }
    if (id !== style) {
      if (text) row.push([style, text]);
      text = '';
      style = id;
    }
    text += chars;
  }
  if (text) row.push([style, text]);
  return row;
}

/** The last cell that shows something: not blank, or blank with a rendition; -1 if none. */
function lastShownCell(line: IBufferLine, width: number, cell: IBufferCell): number {
  for (let x = width - 1; x >= 0; x--) {
    line.getCell(x, cell);
    const code = cell.getCode();
    if (code !== 0 && code !== SPACE) return x;
    if (!cell.isAttributeDefault() && paramsOf(cell) !== '') return x;
  }
  return -1;
}
