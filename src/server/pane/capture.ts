import type { IBufferCell, IBufferLine, Terminal } from '@xterm/headless';
import {
  isDefaultStyle,
  marksBlank,
  sameStyle,
  sgrFor,
  styleOf,
  DEFAULT_STYLE,
  type CellStyle,
} from './cell-style';

/** Captured text is cut to this many bytes (UTF-8) so a reply fits the 1 MiB control-plane frame. */
export const MAX_CAPTURE_BYTES = 128 * 1024;

export interface CaptureOptions {
  /** Reproduce each cell's colours and attributes with SGR sequences. */
  attrs: boolean;
  /** Lines of history above the viewport to include; 0 is the viewport only. */
  scrollback: number;
}

export interface CaptureResult {
  text: string;
  /** How many lines `text` holds. */
  lines: number;
  /** Whether older lines were dropped to keep `text` within 128 KiB. */
  truncated: boolean;
  /** The cursor, relative to the top-left of the viewport (not of `text`). */
  cursor: { x: number; y: number };
  cols: number;
  rows: number;
}

/**
 * The pane as text, like `tmux capture-pane [-e] [-S -N]`: one line per row (the viewport plus
 * `scrollback` rows of history), each right-trimmed, a wide glyph written once. With `attrs`, SGR
 * sequences reproduce each cell's rendition and every line ends reset, so printing the capture in
 * a terminal shows what the pane showed. When the text would pass 128 KiB the oldest lines go.
 */
export function captureTerminal(terminal: Terminal, options: CaptureOptions): CaptureResult {
  const buffer = terminal.buffer.active;
  // baseY is the first row of the viewport when scrolled to the bottom, which a headless
  // terminal always is for the server; everything above it is history.
  const viewportTop = buffer.baseY;
  const first = Math.max(0, viewportTop - Math.max(0, Math.floor(options.scrollback)));
  const end = viewportTop + terminal.rows;
  const render = options.attrs ? styledLine(buffer.getNullCell()) : plainLine;

  // Walk from the newest line up so the cap stops the walk instead of discarding work.
  const lines: string[] = [];
  let bytes = 0;
  let truncated = false;
  for (let y = end - 1; y >= first; y--) {
    const line = buffer.getLine(y);
    const text = line ? render(line, terminal.cols) : '';
    const cost = Buffer.byteLength(text) + (lines.length > 0 ? 1 : 0);
    if (bytes + cost > MAX_CAPTURE_BYTES) {
      truncated = true;
      break;
    }
    bytes += cost;
    lines.push(text);
  }
  lines.reverse();
  return {
    text: lines.join('\n'),
    lines: lines.length,
    truncated,
    cursor: { x: buffer.cursorX, y: buffer.cursorY },
    cols: terminal.cols,
    rows: terminal.rows,
  };
}

function plainLine(line: IBufferLine): string {
  // translateToString skips the zero-width cell after a wide glyph; its own trim keeps spaces
  // that were written, which tmux drops too.
  return line.translateToString(true).replace(/ +$/, '');
}

function styledLine(cell: IBufferCell): (line: IBufferLine, cols: number) => string {
  return (line, cols) => {
    const last = lastVisibleCell(line, cols, cell);
    let out = '';
    let current: CellStyle = DEFAULT_STYLE;
    for (let x = 0; x <= last; x++) {
      line.getCell(x, cell);
      const width = cell.getWidth();
      if (width === 0) continue; // the right half of a wide glyph
      const style = styleOf(cell);
      if (!sameStyle(style, current)) {
        out += isDefaultStyle(style) ? '\x1b[0m' : sgrFor(style);
        current = style;
      }
      out += cell.getChars() || ' ';
    }
    return isDefaultStyle(current) ? out : `${out}\x1b[0m`;
  };
}

/** The index of the last cell worth writing: not blank, or blank but visibly styled. */
function lastVisibleCell(line: IBufferLine, cols: number, cell: IBufferCell): number {
  for (let x = Math.min(cols, line.length) - 1; x >= 0; x--) {
    line.getCell(x, cell);
    const chars = cell.getChars();
    if ((chars !== '' && chars !== ' ') || marksBlank(styleOf(cell))) return x;
  }
  return -1;
}
