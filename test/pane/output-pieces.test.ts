import { Terminal } from '@xterm/headless';
import { cutIntoPieces } from '../../src/server/pane/output-pieces';

function joined(pieces: Uint8Array[]): string {
  return Buffer.concat(pieces).toString('latin1');
}

/** Rows a terminal scrolls into its history when fed `data`, counted by xterm itself. */
function rowsScrolled(data: Uint8Array, cols: number): Promise<number> {
  const terminal = new Terminal({
    cols,
    rows: 5,
    scrollback: 100_000,
    allowProposedApi: true,
    logLevel: 'off',
  });
  // Start on the last row, so that every line feed scrolls.
  return new Promise((resolve) =>
    terminal.write('\r\n'.repeat(4), () =>
      terminal.write(data, () => {
        const scrolled = terminal.buffer.normal.baseY;
        terminal.dispose();
        resolve(scrolled);
      }),
    ),
  );
}

const SAMPLES: ReadonlyArray<readonly [name: string, data: string]> = [
  ['short lines', Array.from({ length: 3000 }, (_, i) => `${i}\r\n`).join('')],
  ['long lines that wrap', Array.from({ length: 300 }, () => `${'x'.repeat(130)}\r\n`).join('')],
  ['one line of wide glyphs', '中'.repeat(4000)],
  ['index and next line controls', '\x1bD\x1bE\x0b\x0c\u0084\u0085'.repeat(300)],
];

describe('cutting output into pieces', () => {
  test.each(SAMPLES)('keeps every byte, in order (%s)', (_, text) => {
    const bytes = Buffer.from(text);
    expect(joined(cutIntoPieces(bytes, 40, 256))).toBe(bytes.toString('latin1'));
  });

  test.each(SAMPLES)(
    'cuts pieces that xterm scrolls at most 256 rows with, and no more than needed (%s)',
    async (_, text) => {
      const bytes = Buffer.from(text);
      const pieces = cutIntoPieces(bytes, 40, 256);
      const scrolled = await Promise.all(pieces.map((piece) => rowsScrolled(piece, 40)));
      expect(Math.max(...scrolled)).toBeLessThanOrEqual(256);
      expect(pieces.length).toBeGreaterThan(1);
      // The bound is close for line-based output: a piece of short lines scrolls nearly 256 rows.
      if (text.includes('\r\n')) expect(Math.max(...scrolled)).toBeGreaterThan(200);
    },
  );

  test('leaves output that cannot reach the bound whole', () => {
    const bytes = Buffer.from('a few\r\nlines\r\n');
    expect(cutIntoPieces(bytes, 80, 256)).toEqual([bytes]);
  });
});
