import type { IBufferCell, IBufferLine } from '@xterm/headless';
import {
  isDefaultStyle,
  marksBlank,
  sameStyle,
  sgrFor,
  styleOf,
  DEFAULT_STYLE,
  type CellStyle,
} from './cell-style';

const SPACE = 0x20;
/** An SGR sequence as `sgrFor` writes them; a cell never holds a control character, so only ours match. */
// eslint-disable-next-line no-control-regex -- the sequences begin with ESC
const SGR = /\x1b\[[0-9;]*m/g;
const TRAILING_SPACES = / +$/;

/** Reused for the plain ASCII lines that make up most output, so rendering one allocates only its string. */
let asciiScratch = Buffer.alloc(256);

/**
 * One row as text with SGR sequences that reproduce each cell's rendition: a wide glyph written
 * once, an unwritten cell as a space, cut after the last cell worth writing (not blank, or blank
 * but visibly styled), and reset at the end if a style is still set. This is what a capture with
 * attributes shows and also what the history archive keeps of a line, so the two cannot differ.
 *
 * The archive renders every line it keeps, so the common line (ASCII in the default rendition)
 * takes one pass that reads each cell once and decodes the result as latin1: a flat one-byte
 * string, where appending characters one by one would build a rope of tens of bytes per character.
 */
export function renderStyledLine(line: IBufferLine, cols: number, cell: IBufferCell): string {
  const width = Math.min(cols, line.length);
  if (asciiScratch.length < width) asciiScratch = Buffer.alloc(width);
  const bytes = asciiScratch;
  let visibleEnd = 0;
  for (let x = 0; x < width; x++) {
    line.getCell(x, cell);
    const code = cell.getCode();
    // A wide glyph is never ASCII, so the plain pass never meets the empty half that follows one.
    if (code >= 0x80 || !cell.isAttributeDefault()) return renderMixedLine(line, width, cell);
    bytes[x] = code === 0 ? SPACE : code;
    if (code > SPACE) visibleEnd = x + 1;
  }
  return bytes.toString('latin1', 0, visibleEnd);
}

/** The same row without attributes, as a plain capture shows it: the SGR removed, right-trimmed. */
export function plainOfStyled(styled: string): string {
  return styled.replace(SGR, '').replace(TRAILING_SPACES, '');
}

/** A row with styled cells or non-ASCII text: cell by cell, an SGR sequence at each change of style. */
function renderMixedLine(line: IBufferLine, width: number, cell: IBufferCell): string {
  const last = lastVisibleCell(line, width, cell);
  const parts: string[] = [];
  let current: CellStyle = DEFAULT_STYLE;
  for (let x = 0; x <= last; x++) {
    line.getCell(x, cell);
    if (cell.getWidth() === 0) continue; // the right half of a wide glyph
    const style = cell.isAttributeDefault() ? DEFAULT_STYLE : styleOf(cell);
    if (style !== current && !sameStyle(style, current)) {
      parts.push(isDefaultStyle(style) ? '\x1b[0m' : sgrFor(style));
      current = style;
    }
    parts.push(cell.getChars() || ' ');
  }
  if (!isDefaultStyle(current)) parts.push('\x1b[0m');
  return parts.join('');
}

/** The index of the last cell worth writing: not blank, or blank but visibly styled; -1 if none. */
function lastVisibleCell(line: IBufferLine, width: number, cell: IBufferCell): number {
  for (let x = width - 1; x >= 0; x--) {
    line.getCell(x, cell);
    const code = cell.getCode();
    if (code !== 0 && code !== SPACE) return x;
    if (!cell.isAttributeDefault() && marksBlank(styleOf(cell))) return x;
  }
  return -1;
}
