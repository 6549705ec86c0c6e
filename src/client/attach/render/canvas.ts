import type { Cell } from '../runs';
import { WIDE_RIGHT, type ScreenLine } from './cells';
import { DEFAULT_ATTR } from './sgr';
import { unblessed } from './unblessed';

export interface Rect {
  x: number;
  y: number;
  cols: number;
  rows: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Text as terminal cells: grapheme clusters with their widths (unblessed's table, as its widgets use). */
export function textCells(text: string): Array<{ ch: string; width: number }> {
  const out: Array<{ ch: string; width: number }> = [];
  for (const { segment } of graphemes.segment(text)) {
    // eslint-disable-next-line no-control-regex
    if (/^[\x00-\x1f\x7f]/.test(segment)) continue;
    const width = Math.min(2, Math.max(0, unblessed.unicode.charWidth(segment, 0)));
    if (width === 0) {
      const last = out[out.length - 1];
      if (last) last.ch += segment;
      continue;
    }
    out.push({ ch: segment, width });
  }
  return out;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const cell of textCells(text)) width += cell.width;
  return width;
}

/** Painting into unblessed's screen buffer, clipped to it. */
export class Canvas {
  constructor(private readonly lines: ScreenLine[]) {}

  get rows(): number {
    return this.lines.length;
  }

  get cols(): number {
    return this.lines[0]?.length ?? 0;
  }

  put(x: number, y: number, attr: number, ch: string): void {
    const line = this.lines[y];
    if (!line) return;
    const cell = line[x];
    if (!cell) return;
    if (cell[0] !== attr || cell[1] !== ch) {
      cell[0] = attr;
      cell[1] = ch;
      line.dirty = true;
    }
  }

  fill(rect: Rect, attr: number, ch = ' '): void {
    for (let y = rect.y; y < rect.y + rect.rows; y++) {
      for (let x = rect.x; x < rect.x + rect.cols; x++) this.put(x, y, attr, ch);
    }
  }

  /** Text from x on row y, not past `end` (exclusive); a wide glyph that would pass it is left out. Returns the x after it. */
  text(x: number, y: number, text: string, attr: number, end = this.cols): number {
    for (const cell of textCells(text)) {
      if (x + cell.width > end) break;
      this.put(x, y, attr, cell.ch);
      if (cell.width === 2) this.put(x + 1, y, attr, WIDE_RIGHT);
      x += cell.width;
    }
    return x;
  }

  /**
   * `count` pane cells from `cells` (starting at `offset`) at (x, y). Right halves become
   * WIDE_RIGHT; a wide glyph whose right half falls outside [x, x + count) (or off the screen)
   * becomes a blank in its style. The hot path of a render: one pass over the row, the style's
   * attribute looked up once per run of equal styles.
   */
  cells(
    x: number,
    y: number,
    cells: readonly Cell[] | undefined,
    count: number,
    attrOf: (style: number) => number,
    offset = 0,
  ): void {
    const line = this.lines[y];
    if (!line || x < 0) return;
    const end = Math.min(count, line.length - x);
    let dirty = false;
    let style = -1;
    let styleAttr = DEFAULT_ATTR;
    for (let i = 0; i < end; i++) {
      const target = line[x + i]!;
      const cell = cells?.[offset + i];
      let attr = DEFAULT_ATTR;
      let ch = ' ';
      if (cell) {
        if (cell.style !== style) {
          style = cell.style;
          styleAttr = attrOf(style);
        }
        attr = styleAttr;
        if (cell.width === 2) {
          if (i + 1 < end && cells?.[offset + i + 1]?.width === 0) {
            const right = line[x + i + 1]!;
            if (target[0] !== attr || target[1] !== cell.ch || right[0] !== attr || right[1] !== WIDE_RIGHT) {
              target[0] = attr;
              target[1] = cell.ch;
              right[0] = attr;
              right[1] = WIDE_RIGHT;
              dirty = true;
            }
            i++;
            continue;
          }
        } else if (cell.width !== 0) {
          ch = cell.ch;
        }
        // Else a right half whose glyph was not written here (a row that starts inside a wide glyph).
      }
      if (target[0] !== attr || target[1] !== ch) {
        target[0] = attr;
        target[1] = ch;
        dirty = true;
      }
    }
    if (dirty) line.dirty = true;
  }

  /**
   * Blanks every wide glyph that the edge of `rect` cuts (left half outside, right half inside, or
   * the reverse). Called before a widget renders over `rect`: the widget overwrites one half and
   * the other must not be left to show half a glyph or spill into the widget.
   */
  splitAt(rect: Rect): void {
    for (let y = Math.max(0, rect.y); y < Math.min(this.rows, rect.y + rect.rows); y++) {
      this.unpair(rect.x - 1, y);
      this.unpair(rect.x + rect.cols - 1, y);
    }
  }

  /**
   * One narrow character over cell (x, y) in the cell's own rendition passed through `map`
   * (predicted echo: the same colours, underlined). A wide glyph it lands on either half of
   * is blanked first, so no half glyph is left.
   */
  overwrite(x: number, y: number, ch: string, map: (attr: number) => number): void {
    const line = this.lines[y];
    const cell = line?.[x];
    if (!line || !cell) return;
    if (cell[1] === WIDE_RIGHT) this.unpair(x - 1, y);
    else this.unpair(x, y);
    this.put(x, y, map(cell[0]), ch);
  }

  /** Apply `map` to the attributes of cells [from, to) of row y (selections). */
  mapAttrs(y: number, from: number, to: number, map: (attr: number) => number): void {
    const line = this.lines[y];
    if (!line) return;
    for (let x = Math.max(0, from); x < Math.min(line.length, to); x++) {
      const cell = line[x]!;
      const attr = map(cell[0]);
      if (attr !== cell[0]) {
        cell[0] = attr;
        line.dirty = true;
      }
    }
  }

  /** The text of cells [from, to) of row y, each wide glyph once. */
  textOf(y: number, from: number, to: number): string {
    const line = this.lines[y];
    if (!line) return '';
    let out = '';
    for (let x = Math.max(0, from); x < Math.min(line.length, to); x++) {
      const ch = line[x]![1];
      if (ch !== WIDE_RIGHT) out += ch;
    }
    return out;
  }

  private unpair(x: number, y: number): void {
    const line = this.lines[y];
    if (!line || x < 0) return;
    const left = line[x];
    const right = line[x + 1];
    if (!left || !right || right[1] !== WIDE_RIGHT || left[1] === WIDE_RIGHT) return;
    this.put(x, y, left[0], ' ');
    this.put(x + 1, y, right[0], ' ');
  }
}
