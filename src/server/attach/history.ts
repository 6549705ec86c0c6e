import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type { Pane } from '../pane';
import type { AttachHistory, Row } from '../../protocol/attach';
import { encodeRow, StyleTable } from './rows';

/**
 * A pane's history and screen as runs, for a client's copy mode. Styles come from the session's
 * own table, so their ids mean the same in frames and here; the reply names every style it uses. The pane's capture (the archive
 * and xterm's rows, with attributes) is replayed into a scratch terminal of the pane's width, so
 * archived rows come back as cells with the same encoder the live rows use.
 */
export async function paneHistory(pane: Pane, lines: number, styles: StyleTable): Promise<AttachHistory> {
  const captured = pane.capture({ attrs: true, scrollback: lines });
  const cols = pane.terminal.cols;
  const count = Math.max(1, captured.lines);
  const scratch = new Terminal({
    cols,
    rows: 1,
    scrollback: count,
    allowProposedApi: true,
    convertEol: true,
    logLevel: 'off',
  });
  try {
    scratch.loadAddon(new Unicode11Addon());
    scratch.unicode.activeVersion = '11';
    await new Promise<void>((resolve) => scratch.write(captured.text, resolve));
    const buffer = scratch.buffer.active;
    const used = new Set<number>();
    const cell = buffer.getNullCell();
    const rows: Row[] = [];
    const total = buffer.baseY + 1;
    for (let y = Math.max(0, total - count); y < total; y++) {
      const row = encodeRow(buffer.getLine(y), cols, cell, styles);
      for (const run of row) used.add(run[0]);
      rows.push(row);
    }
    return {
      lines: rows,
      styles: styles.describe(used),
      screenTop: Math.max(0, rows.length - pane.terminal.rows),
      cols,
    };
  } finally {
    scratch.dispose();
  }
}
