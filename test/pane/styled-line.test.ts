import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal, type IBufferLine } from '@xterm/headless';
import { plainOfStyled, renderStyledLine } from '../../src/server/pane/styled-line';

const terminals: Terminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.dispose()));

function fed(data: string, cols = 40, rows = 12): Promise<Terminal> {
  const terminal = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off' });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  terminals.push(terminal);
  return new Promise((resolve) => terminal.write(data, () => resolve(terminal)));
}

function rendered(terminal: Terminal): string[] {
  const buffer = terminal.buffer.active;
  const cell = buffer.getNullCell();
  return Array.from({ length: terminal.rows }, (_, y) =>
    renderStyledLine(buffer.getLine(y)!, terminal.cols, cell),
  );
}

// Plain rows, rows with trailing written spaces, wide glyphs, a combining mark, styled text,
// styled blanks at the end (written and erased), and a row cut at the margin.
const ROWS = [
  'plain ascii',
  'spaces written after   ',
  '中文😀 wide',
  'e\u0301 combined',
  '\x1b[1;31mbold red\x1b[0m then plain',
  'tail \x1b[42m      \x1b[0m',
  'erased \x1b[44m\x1b[K\x1b[0m',
  '\x1b[4munderlined\x1b[0m',
  'x'.repeat(40),
  '',
];

describe('rendering a row with its attributes', () => {
  test('writes the text of a plain row as it is, right-trimmed', async () => {
    const terminal = await fed('plain ascii   \r\n  indented\r\n\r\nlast');
    expect(rendered(terminal).slice(0, 5)).toEqual(['plain ascii', '  indented', '', 'last', '']);
  });

  test('writes SGR on each change of rendition, keeps visibly styled blanks and resets at the end', async () => {
    const terminal = await fed(ROWS.join('\r\n'));
    expect(rendered(terminal).slice(4, 8)).toEqual([
      '\x1b[0;1;31mbold red\x1b[0m then plain',
      'tail \x1b[0;42m      \x1b[0m',
      `erased \x1b[0;44m${' '.repeat(33)}\x1b[0m`,
      '\x1b[0;4munderlined\x1b[0m',
    ]);
  });

  test('loses nothing a plain capture shows: without its SGR it is the row right-trimmed', async () => {
    const terminal = await fed(ROWS.join('\r\n'));
    const buffer = terminal.buffer.active;
    const plain = Array.from({ length: terminal.rows }, (_, y) =>
      buffer.getLine(y)!.translateToString(true).replace(/ +$/, ''),
    );
    expect(rendered(terminal).map(plainOfStyled)).toEqual(plain);
    expect(plain.slice(0, 4)).toEqual([
      'plain ascii',
      'spaces written after',
      '中文😀 wide',
      'e\u0301 combined',
    ]);
  });

  test("reads the same from xterm's cells as through its public API, whatever the row holds", async () => {
    // Rows written, then partly overwritten, erased in colour, cleared, scrolled (a new row filled in
    // colour) and resized, so
    // the written extent the fast path trusts has been raised and lowered every way xterm does it.
    const terminal = await fed(
      [
        'to be cleared\x1b[2J\x1b[H',
        ...ROWS,
        'long line to be cut short\x1b[10D\x1b[K',
        '\x1b[41m\x1b[2K\x1b[0mafter a coloured erase',
        'abc\x1b[5Cdef',
        '\x1b[7m \x1b[0m',
      ].join('\r\n') +
        '\r\n'.repeat(15) +
        'scrolled\x1b[45m\r\n\x1b[0mscrolled in colour',
      40,
      12,
    );
    terminal.resize(30, 12);
    await new Promise<void>((resolve) => terminal.write('\r\nresized \x1b[44m wide \x1b[0m', resolve));
    const buffer = terminal.buffer.active;
    const cell = buffer.getNullCell();
    const rows = Array.from({ length: buffer.length }, (_, y) => buffer.getLine(y)!);
    // A view with only the public members: the path a build without the patch's fields takes.
    const publicOnly = (line: IBufferLine): IBufferLine => ({
      isWrapped: line.isWrapped,
      length: line.length,
      getCell: (x, into) => line.getCell(x, into),
      translateToString: (trim, start, end) => line.translateToString(trim, start, end),
    });
    const fast = rows.map((line) => renderStyledLine(line, terminal.cols, cell));
    expect(fast).toEqual(rows.map((line) => renderStyledLine(publicOnly(line), terminal.cols, cell)));
    expect(fast).toContain('after a coloured erase\x1b[0;41m' + ' '.repeat(8) + '\x1b[0m');
    expect(fast).toContain('long line to be');
    expect(fast).toContain('scrolled in colour\x1b[0;45m' + ' '.repeat(12) + '\x1b[0m');
    expect(fast).toContain('abc     def');
    expect(fast.at(-1)).toBe('resized \x1b[0;44m wide \x1b[0m');
  });
});
