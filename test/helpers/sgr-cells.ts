import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';

/**
 * Lines of SGR-attributed text (a `tmux capture-pane -e`) as the cells they draw, so two captures
 * can be compared cell by cell: tmux writes each attribute as a change from the cell before, and
 * the same cells can be written with different sequences.
 */
export async function cellsOf(lines: string[], cols: number): Promise<string[]> {
  const term = new Terminal({ cols, rows: lines.length, allowProposedApi: true, logLevel: 'off' });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  try {
    await new Promise<void>((r) => term.write(lines.map((l) => `\x1b[0m${l}`).join('\r\n'), r));
    const buffer = term.buffer.active;
    const cell = buffer.getNullCell();
    const out: string[] = [];
    for (let y = 0; y < lines.length; y++) {
      const line = buffer.getLine(y)!;
      const cells: string[] = [];
      for (let x = 0; x < cols; x++) {
        line.getCell(x, cell);
        if (cell.getWidth() === 0) continue;
        const attrs = [
          cell.getFgColorMode(),
          cell.getFgColor(),
          cell.getBgColorMode(),
          cell.getBgColor(),
          cell.isBold(),
          cell.isDim(),
          cell.isItalic(),
          cell.isUnderline(),
          cell.isInverse(),
          cell.isStrikethrough(),
        ].map(Number);
        cells.push(`${cell.getChars() || ' '}/${cell.getWidth()}/${attrs.join(',')}`);
      }
      out.push(cells.join(' '));
    }
    return out;
  } finally {
    term.dispose();
  }
}
