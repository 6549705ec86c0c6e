import { DEFAULT_ATTR } from './sgr';
import { WIDE_RIGHT, type ScreenLine } from './cells';

/** Where the terminal's cursor is after what was written so far (x -1: not known, e.g. a pending wrap). */
export interface TerminalPosition {
  x: number;
  y: number;
}

/** Unchanged cells this short are rewritten rather than jumped over (when the rendition allows). */
const REWRITE_GAP = 3;

/** Where drawing left the terminal: its cursor, and the rendition last set (SGR). */
export interface Pen {
  at: TerminalPosition;
  attr: number;
}

/**
 * Makes a row writable as it stands: a right half with no glyph before it (a widget covered
 * the glyph) becomes a blank. The compositor blanks a pane's wide glyph that a widget's rect
 * would cut before the widget renders (Canvas.splitAt), so a glyph never loses its right half
 * here; nothing on screen ever shows half a wide glyph.
 */
export function settleWideLine(line: ScreenLine): void {
  for (let x = 0; x < line.length; x++) {
    const cell = line[x]!;
    if (cell[1] === WIDE_RIGHT) cell[1] = ' ';
    else if (line[x + 1]?.[1] === WIDE_RIGHT) x++; // a well-formed pair
  }
}

export function settleWideCells(back: ScreenLine[]): void {
  for (const line of back) settleWideLine(line);
}

/**
 * The bytes that turn what the terminal shows (`front`) into `back`, updating `front` to match:
 * changed cells only, a wide glyph written once over both its cells, cursor moves by CUP or
 * CUF, SGR only where the rendition changes (as a reset plus the full parameters, so no earlier
 * attribute can leak in). `back[0]` is screen row `firstRow`. An unchanged buffer gives ''.
 */
export function diffDraw(
  back: ScreenLine[],
  front: ScreenLine[],
  paramsOf: (attr: number) => string,
  at: TerminalPosition,
  firstRow = 0,
): string {
  const pen: Pen = { at, attr: DEFAULT_ATTR };
  let out = '';
  for (let row = 0; row < back.length; row++)
    out += diffLine(back[row]!, front[row]!, firstRow + row, paramsOf, pen);
  return out + penUp(pen);
}

/** Back to the default rendition if drawing left another one set. */
export function penUp(pen: Pen): string {
  if (pen.attr === DEFAULT_ATTR) return '';
  pen.attr = DEFAULT_ATTR;
  return '\x1b[m';
}

/** diffDraw for one row, screen row `y`, leaving the rendition set in `pen` (end with penUp). */
export function diffLine(
  line: ScreenLine,
  old: ScreenLine,
  y: number,
  paramsOf: (attr: number) => string,
  pen: Pen,
): string {
  const at = pen.at;
  let out = '';
  const cols = line.length;
  for (let x = 0; x < cols; x++) {
    const cell = line[x]!;
    const o = old[x]!;
    const wide = x + 1 < cols && line[x + 1]![1] === WIDE_RIGHT;
    // A glyph that was wide and is now narrow (or the reverse) changed even if its text did not.
    const wasWide = x + 1 < cols && old[x + 1]![1] === WIDE_RIGHT;
    if (
      o[0] === cell[0] &&
      o[1] === cell[1] &&
      wide === wasWide &&
      (!wide || sameCell(old[x + 1]!, line[x + 1]!))
    ) {
      if (wide) x++;
      continue;
    }
    // Move there: rewrite a short run of unchanged narrow cells in the current rendition, else jump.
    if (at.y === y && at.x >= 0 && at.x <= x) {
      const gap = x - at.x;
      if (gap > 0) {
        if (gap <= REWRITE_GAP && rewritable(line, at.x, x, pen.attr)) {
          for (let i = at.x; i < x; i++) out += line[i]![1];
        } else out += gap === 1 ? '\x1b[C' : `\x1b[${gap}C`;
      }
    } else {
      out += x === 0 ? `\x1b[${y + 1}H` : `\x1b[${y + 1};${x + 1}H`;
    }
    if (cell[0] !== pen.attr) {
      const params = paramsOf(cell[0]);
      out += params === '' ? '\x1b[m' : `\x1b[0;${params}m`;
      pen.attr = cell[0];
    }
    out += printable(cell[1]);
    o[0] = cell[0];
    o[1] = cell[1];
    if (wide) {
      const right = old[x + 1]!;
      right[0] = line[x + 1]![0];
      right[1] = WIDE_RIGHT;
      x++;
    }
    // Writing the last column leaves a pending wrap: the next write must position itself.
    at.y = y;
    at.x = x + 1 >= cols ? -1 : x + 1;
  }
  return out;
}

function sameCell(a: readonly [number, string], b: readonly [number, string]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** Cells [from, to) can be written again as they are: narrow, and in the rendition already set. */
function rewritable(line: ScreenLine, from: number, to: number, attr: number): boolean {
  for (let i = from; i < to; i++) {
    const cell = line[i]!;
    if (cell[0] !== attr || cell[1] === WIDE_RIGHT || cell[1].length !== 1 || cell[1] < ' ') return false;
    const next = line[i + 1];
    if (next && next[1] === WIDE_RIGHT) return false;
  }
  return true;
}

/** A cell's text as it may go to the terminal: no control characters, never empty. */
function printable(ch: string): string {
  if (ch === '') return ' ';
  if (ch.length === 1) return ch < ' ' || ch === '\x7f' ? ' ' : ch;
  // eslint-disable-next-line no-control-regex
  return /[\x00-\x1f\x7f]/.test(ch) ? ch.replace(/[\x00-\x1f\x7f]/g, '') || ' ' : ch;
}
