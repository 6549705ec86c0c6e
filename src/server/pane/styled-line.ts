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

/** Reused for the plain ASCII lines that make up most output: the archive copies one from here, a capture decodes it. */
let asciiScratch = Buffer.alloc(256);

/** A cell's content word in xterm: the code point in the low 21 bits, then "combined", then the width. */
const CODEPOINT_MASK = 0x1fffff;
/** Set in a content word by a code point of 0x80 or more, or by a combined cell: not plain ASCII. */
const NOT_ASCII_MASK = 0x3fff80;

/**
 * The fields of xterm's internal row (behind the public `IBufferLine`, as `_line`) that the fast
 * path reads: the cells, three words each (content, foreground, background), and what
 * scripts/patch-xterm.js adds, how many leading cells may differ from the blank the rest of the row
 * holds (`_fuxDirty`) and that blank's three words. Each is checked before use; without them every
 * row takes the public API's path.
 */
interface PatchedRow {
  readonly _data: Uint32Array;
  readonly _fuxDirty: number;
  readonly _fuxFillC: number;
  readonly _fuxFillF: number;
  readonly _fuxFillB: number;
}

/**
 * `line`'s internal row, when its cells past `_fuxDirty` are known to hold a blank in the default
 * rendition (as every row's do after a line feed, an erase or a clear without colour): then a `seq`
 * line at 200 columns is 8 cells to read, not 200. Undefined when that is not known.
 */
function rowWithBlankFill(line: IBufferLine): PatchedRow | undefined {
  const row = (line as { _line?: Partial<PatchedRow> })._line;
  if (
    row === undefined ||
    !(row._data instanceof Uint32Array) ||
    typeof row._fuxDirty !== 'number' ||
    row._fuxFillC === undefined
  )
    return undefined;
  const fillCode = row._fuxFillC & CODEPOINT_MASK;
  const blankFill =
    (fillCode === 0 || fillCode === SPACE) &&
    (row._fuxFillC & NOT_ASCII_MASK) === 0 &&
    row._fuxFillF === 0 &&
    row._fuxFillB === 0;
  return blankFill ? (row as PatchedRow) : undefined;
}

/** Where `styledRow` puts a row: its text, or the bytes of a plain ASCII row (a scratch buffer's first `length`). */
export interface StyledRowSink {
  push(row: string): void;
  pushAscii(bytes: Uint8Array, length: number): void;
}

/**
 * One row as text with SGR sequences that reproduce each cell's rendition: a wide glyph written
 * once, an unwritten cell as a space, cut after the last cell worth writing (not blank, or blank
 * but visibly styled), and reset at the end if a style is still set. This is what a capture with
 * attributes shows and also what the history archive keeps of a line, so the two cannot differ.
 */
export function renderStyledLine(line: IBufferLine, cols: number, cell: IBufferCell): string {
  let text = '';
  styledRow(line, cols, cell, {
    push: (row) => (text = row),
    pushAscii: (bytes, length) =>
      (text = Buffer.from(bytes.buffer, bytes.byteOffset, length).toString('latin1')),
  });
  return text;
}

/**
 * `renderStyledLine` for the history archive, which renders every line it keeps: the common line
 * (ASCII in the default rendition) goes to `sink` as its bytes, for the archive to copy as they are,
 * any other as its string. The plain pass reads each cell once, from xterm's cell words, and stops
 * at the row's written extent when it is known: the public `getCell` copies three words and two
 * maps' entries into an object per cell, and rendering through it, then encoding the string into
 * the archive, was a fifth of the server's time with 40 panes flooding (B10).
 */
export function styledRow(line: IBufferLine, cols: number, cell: IBufferCell, sink: StyledRowSink): void {
  const width = Math.min(cols, line.length);
  if (asciiScratch.length < width) asciiScratch = Buffer.alloc(width);
  const row = rowWithBlankFill(line);
  if (row === undefined) {
    renderThroughApi(line, width, cell, sink);
    return;
  }
  const end = Math.min(width, row._fuxDirty);
  const bytes = asciiScratch;
  const data = row._data;
  // Every cell is copied and checked without a branch, and the row rendered cell by cell after all
  // if one was not plain (attributes, a code point past ASCII, a wide glyph or a combined cell):
  // rare, and the rest are archived faster (a 99-character row with its `getLine`: 317–382 against
  // 388–473 ns).
  let notPlain = 0;
  for (let x = 0, i = 0; x < end; x++, i += 3) {
    const content = data[i]!;
    notPlain |= (content & NOT_ASCII_MASK) | data[i + 1]! | data[i + 2]!;
    bytes[x] = content & CODEPOINT_MASK || SPACE;
  }
  if (notPlain !== 0) {
    sink.push(renderMixedLine(line, width, end, cell));
    return;
  }
  let visibleEnd = end;
  while (visibleEnd > 0 && bytes[visibleEnd - 1]! <= SPACE) visibleEnd--;
  sink.pushAscii(bytes, visibleEnd);
}

/** `styledRow` through xterm's public API only, every cell of the row read. */
function renderThroughApi(line: IBufferLine, width: number, cell: IBufferCell, sink: StyledRowSink): void {
  const bytes = asciiScratch;
  let visibleEnd = 0;
  for (let x = 0; x < width; x++) {
    line.getCell(x, cell);
    const code = cell.getCode();
    // A wide glyph is never ASCII, so the plain pass never meets the empty half that follows one.
    if (code >= 0x80 || !cell.isAttributeDefault()) {
      sink.push(renderMixedLine(line, width, width, cell));
      return;
    }
    bytes[x] = code === 0 ? SPACE : code;
    if (code > SPACE) visibleEnd = x + 1;
  }
  sink.pushAscii(bytes, visibleEnd);
}

/** The same row without attributes, as a plain capture shows it: the SGR removed, right-trimmed. */
export function plainOfStyled(styled: string): string {
  return styled.replace(SGR, '').replace(TRAILING_SPACES, '');
}

/**
 * A row with styled cells or non-ASCII text: cell by cell, an SGR sequence at each change of style.
 * Cells from `scanEnd` to `width` are known to be default blanks.
 */
function renderMixedLine(line: IBufferLine, width: number, scanEnd: number, cell: IBufferCell): string {
  const last = lastVisibleCell(line, Math.min(width, scanEnd), cell);
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
