/**
 * The detection window: which rows of a terminal the rules read.
 *
 * On the primary screen it is the last `rows` lines ending at the later of the last non-blank
 * viewport row and the cursor row. When the bottom of the viewport is blank (a short transcript
 * after a clear, an agent that draws at the top) that reaches back into scrollback, so the rules
 * still see a full screen of context. When the whole viewport is blank it ends at the viewport
 * bottom (nothing is shown, so nothing is read from history). On the alternate screen it is simply
 * that screen's rows. Lines are right-trimmed, wide glyphs appear once (their continuation cells
 * are skipped), and trailing blank lines are dropped.
 *
 * It reads buffer lines directly and never scrolls the terminal, so a user's scroll position (and
 * the fux server's viewport) is untouched.
 */
import type { IBuffer } from '@xterm/headless';

function lineText(buffer: IBuffer, y: number): string {
  return buffer.getLine(y)?.translateToString(true).trimEnd() ?? '';
}

export function detectionWindow(buffer: IBuffer, rows: number): string[] {
  const top = buffer.baseY;
  let start = top;
  let end = top + rows - 1;
  if (buffer.type === 'normal') {
    let lastNonBlank = -1;
    for (let y = end; y >= top; y--) {
      if (lineText(buffer, y) !== '') {
        lastNonBlank = y;
        break;
      }
    }
    if (lastNonBlank >= 0) end = Math.max(lastNonBlank, top + buffer.cursorY);
    start = Math.max(0, end - rows + 1);
  }
  const lines: string[] = [];
  for (let y = start; y <= end; y++) lines.push(lineText(buffer, y));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
