import type { IBufferLine, Terminal } from '@xterm/headless';
import { plainOfStyled, renderStyledLine } from './styled-line';

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

/** The normal screen's history as kept outside the terminal and in it. */
export interface PaneHistory {
  /** Archived rows (rendered with attributes) shown above the terminal's own, oldest first. */
  readonly archivedCount: number;
  archivedRow(index: number): string;
  /** The terminal's first row of history that is not also archived. */
  readonly firstTerminalRow: number;
}

/**
 * The pane as text, like `tmux capture-pane [-e] [-S -N]`: one line per row (the viewport plus
 * `scrollback` rows of history), each right-trimmed, a wide glyph written once. With `attrs`, SGR
 * sequences reproduce each cell's rendition and every line ends reset, so printing the capture in
 * a terminal shows what the pane showed. When the text would pass 128 KiB the oldest lines go.
 *
 * On the normal screen the history is the archived rows (already rendered) followed by xterm's
 * own; the alternate screen has no history.
 */
export function captureTerminal(
  terminal: Terminal,
  options: CaptureOptions,
  history: PaneHistory,
): CaptureResult {
  const buffer = terminal.buffer.active;
  const onNormal = buffer.type === 'normal';
  const archivedCount = onNormal ? history.archivedCount : 0;
  const skipped = onNormal ? history.firstTerminalRow : 0;
  // baseY is the first row of the viewport when scrolled to the bottom, which a headless
  // terminal always is for the server; everything above it is history. Rows are numbered across
  // the archive and the terminal's rows it lacks: terminal row y is row y - skipped + archivedCount.
  const offset = archivedCount - skipped;
  const viewportTop = offset + buffer.baseY;
  const first = Math.max(0, viewportTop - Math.max(0, Math.floor(options.scrollback)));
  const end = viewportTop + terminal.rows;
  const cell = buffer.getNullCell();
  const renderLive = options.attrs
    ? (line: IBufferLine): string => renderStyledLine(line, terminal.cols, cell)
    : plainLine;
  const renderArchived = options.attrs ? (row: string): string => row : plainOfStyled;

  // Walk from the newest line up so the cap stops the walk instead of discarding work.
  const lines: string[] = [];
  let bytes = 0;
  let truncated = false;
  for (let y = end - 1; y >= first; y--) {
    let text: string;
    if (y < archivedCount) {
      text = renderArchived(history.archivedRow(y));
    } else {
      const line = buffer.getLine(y - offset);
      text = line ? renderLive(line) : '';
    }
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
