import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';

interface Patch {
  file: string;
  edits: { from: string; to: string }[];
}
interface PatchScript {
  patchXterm(dir: string, options?: { check?: boolean }): string[];
  PATCHES: Patch[];
  EXPECTED_VERSION: string;
}
// The script is plain CommonJS run by npm's postinstall; required here as it runs there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const script = require('../../scripts/patch-xterm.js') as PatchScript;

const installed = path.dirname(require.resolve('@xterm/headless/package.json'));
let pristine = '';

/** A copy of the installed package with the patch taken out again: xterm as published. */
function pristineCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-xterm-'));
  fs.copyFileSync(path.join(installed, 'package.json'), path.join(dir, 'package.json'));
  fs.mkdirSync(path.join(dir, 'lib-headless'));
  for (const { file, edits } of script.PATCHES) {
    let text = fs.readFileSync(path.join(installed, file), 'utf8');
    for (const { from, to } of [...edits].reverse()) text = text.replace(to, from);
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

beforeAll(() => {
  pristine = pristineCopy();
});
afterAll(() => fs.rmSync(pristine, { recursive: true, force: true }));

describe('the @xterm/headless patch script', () => {
  test('the installed package is patched (npm install ran the script)', () => {
    for (const { file, edits } of script.PATCHES) {
      for (const { to } of edits) expect(fs.readFileSync(path.join(installed, file), 'utf8')).toContain(to);
    }
  });

  test('patches a pristine copy once and leaves it alone when run again', () => {
    const dir = pristineCopy();
    try {
      expect(script.patchXterm(dir, { check: true })).toEqual(
        script.PATCHES.map((p) => `${p.file}: not patched`),
      );
      expect(script.patchXterm(dir)).toEqual(script.PATCHES.map((p) => `${p.file}: patched`));
      const once = script.PATCHES.map((p) => fs.readFileSync(path.join(dir, p.file), 'utf8'));
      expect(script.patchXterm(dir)).toEqual(script.PATCHES.map((p) => `${p.file}: already patched`));
      expect(script.PATCHES.map((p) => fs.readFileSync(path.join(dir, p.file), 'utf8'))).toEqual(once);
      for (const [i, { file }] of script.PATCHES.entries()) {
        expect(once[i]).toBe(fs.readFileSync(path.join(installed, file), 'utf8'));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('completes a package patched by an earlier version of the script (the first edit only)', () => {
    const dir = pristineCopy();
    try {
      for (const { file, edits } of script.PATCHES) {
        const full = path.join(dir, file);
        fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(edits[0]!.from, edits[0]!.to));
      }
      expect(script.patchXterm(dir)).toEqual(script.PATCHES.map((p) => `${p.file}: patched`));
      for (const { file } of script.PATCHES) {
        expect(fs.readFileSync(path.join(dir, file), 'utf8')).toBe(
          fs.readFileSync(path.join(installed, file), 'utf8'),
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses a file whose text is not the expected pre-image, and changes nothing', () => {
    const dir = pristineCopy();
    try {
      const first = path.join(dir, script.PATCHES[0]!.file);
      const changed = fs.readFileSync(first, 'utf8').replace(script.PATCHES[0]!.edits[1]!.from, 'class h{}');
      fs.writeFileSync(first, changed);
      const second = path.join(dir, script.PATCHES[1]!.file);
      const before = fs.readFileSync(second, 'utf8');
      expect(() => script.patchXterm(dir)).toThrow(/does not hold the expected text of edit 2/);
      expect(fs.readFileSync(first, 'utf8')).toBe(changed);
      expect(fs.readFileSync(second, 'utf8')).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses another version of the package', () => {
    const dir = pristineCopy();
    try {
      const manifest = path.join(dir, 'package.json');
      const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
      fs.writeFileSync(manifest, JSON.stringify({ ...json, version: '6.0.1' }));
      expect(() => script.patchXterm(dir)).toThrow(/is 6\.0\.1, but scripts\/patch-xterm\.js patches/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

type TerminalClass = typeof Terminal;

function makeTerminal(Impl: TerminalClass, scrollback: number): Terminal {
  const terminal = new Impl({ cols: 40, rows: 10, scrollback, allowProposedApi: true, logLevel: 'off' });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

function write(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/** The parts of xterm's BufferLine that copyFrom writes (private: the patch is to them). */
interface RawLine {
  _data: Uint32Array;
  _combined: Record<string, unknown>;
  _extendedAttrs: Record<string, unknown>;
  isWrapped: boolean;
  length: number;
}
interface RawTerminal {
  _core: { buffers: { normal: { lines: { length: number; get(i: number): RawLine } } } };
}

/** Each row as xterm holds it: its cells' words, its two maps and its wrapped flag. */
function rawRows(terminal: Terminal): string[] {
  const lines = (terminal as unknown as RawTerminal)._core.buffers.normal.lines;
  const rows: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines.get(i);
    rows.push(
      JSON.stringify([
        line.length,
        Array.from(line._data.subarray(0, line.length * 3)),
        line._combined,
        line._extendedAttrs,
        line.isWrapped,
      ]),
    );
  }
  return rows;
}

/** Every row of the normal buffer, cell by cell: characters, width, colours and attributes. */
function snapshot(terminal: Terminal): string[] {
  const buffer = terminal.buffer.normal;
  const cell = buffer.getNullCell();
  const rows: string[] = [
    `length ${buffer.length} baseY ${buffer.baseY} cursor ${buffer.cursorX},${buffer.cursorY}`,
  ];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    const cells: string[] = [];
    for (let x = 0; x < line.length; x++) {
      line.getCell(x, cell);
      cells.push(
        [
          cell.getChars(),
          cell.getWidth(),
          cell.getFgColorMode(),
          cell.getFgColor(),
          cell.getBgColorMode(),
          cell.getBgColor(),
          cell.isBold(),
          cell.isItalic(),
          cell.isDim(),
          cell.isUnderline(),
          cell.isInverse(),
          cell.isStrikethrough(),
          cell.isOverline(),
        ].join(':'),
      );
    }
    rows.push(`${line.isWrapped ? 'W' : '-'} ${cells.join(' ')}`);
  }
  return rows;
}

/** xterm's registry of hyperlinks (OSC 8): each link's address and the rows it is on. */
interface RawLinks {
  _core: {
    _oscLinkService: { _dataByLinkId: Map<number, { data: { uri: string }; lines: { line: number }[] }> };
  };
}

/** Every hyperlink xterm knows, with the rows it was printed on (print registers them). */
function linkRows(terminal: Terminal): string[] {
  const links = (terminal as unknown as RawLinks)._core._oscLinkService._dataByLinkId;
  return [...links.values()].map(({ data, lines }) => `${data.uri} ${lines.map((l) => l.line).join(',')}`);
}

/** A size for both terminals, between writes. */
interface Resize {
  readonly cols: number;
  readonly rows: number;
}

/**
 * Output that scrolls a full buffer many times over, with the cases copyFrom must reproduce:
 * colours (256 and truecolor), curly and coloured underlines (extended attributes), combining
 * characters, wide glyphs, wrapped rows, coloured erases (blank rows with a background), a scroll
 * region, and every other way a cell is written, which the patch's count of written cells must
 * see: inserted, deleted, erased and repeated characters, and with `resizes`, rows that shrink and
 * grow between writes.
 */
function scrollHeavyInput(resizes = false): (string | Resize)[] {
  const parts: (string | Resize)[] = [];
  for (let i = 0; i < 400; i++) {
    parts.push(`\x1b[38;5;${i % 256}mline ${i}\x1b[0m plain\r\n`);
    if (i % 7 === 0) parts.push(`\x1b[4:3m\x1b[58;2;10;200;30mcurly ${i}\x1b[0m\r\n`);
    if (i % 11 === 0) parts.push(`e\u0301 cafe\u0301 ${'\u{1F600}'.repeat(3)} 世界 ${i}\r\n`);
    if (i % 13 === 0) parts.push(`${'w'.repeat(95)}${i}\r\n`);
    if (i % 17 === 0) parts.push(`\x1b[48;2;40;50;60m\x1b[K\r\n\x1b[0m`);
    if (i % 19 === 0) parts.push(`abcdefgh\x1b[4D\x1b[3@\x1b[2P\x1b[30G\x1b[5X|\x1b[12b\r\n`);
    if (i % 23 === 0) parts.push(`\x1b[36Gfar right ${i}\x1b[1;33m\x1b[2K\x1b[0mafter\r\n`);
    if (i % 29 === 0)
      parts.push(`\x1b[3;7r\x1b[7;1H${'\x1b[1;3mregion\r\n'.repeat(9)}\x1b[0m\x1b[r\x1b[10;1H`);
    if (resizes && i % 31 === 0) parts.push(i % 62 === 0 ? { cols: 23, rows: 7 } : { cols: 40, rows: 10 });
  }
  return parts;
}

/**
 * Text printed every way InputHandler.print treats it, which the patch's ASCII run must leave to
 * the general loop or reproduce: runs that wrap or stop at the margin (autowrap on and off), a
 * cursor waiting to wrap, the DEC line-drawing charset, insert mode, a hyperlink over two rows, ASCII over
 * either half of a wide glyph, and combining marks and joiners that arrive in the write after the
 * character they attach to.
 */
function printHeavyInput(): (string | Resize)[] {
  const parts: (string | Resize)[] = [];
  for (let i = 0; i < 120; i++) {
    parts.push(`${'p'.repeat(30 + (i % 25))} ${i}\r\n`);
    if (i % 3 === 0) parts.push(`${'q'.repeat(40)}`, `after the margin ${i}\r\n`);
    if (i % 5 === 0) parts.push(`\x1b(0lqqk x \x1b(Bascii ${i}\r\n`);
    if (i % 7 === 0) parts.push(`abcdef\x1b[1G\x1b[4hINS ${i}\x1b[4l\r\n`);
    if (i % 9 === 0)
      parts.push(
        `\x1b]8;;https://example.test/${i}\x07link ${i}\r\n`,
        `on the next row\x1b]8;;\x07 after\r\n`,
      );
    if (i % 11 === 0) parts.push(`世界世界\x1b[2Gz\x1b[5Gab\r\n`);
    if (i % 13 === 0) parts.push(`base e`, `\u0301 joined`, `\u200d\u{1F600} x\r\n`);
    if (i % 17 === 0) parts.push(`\x1b[?7l${'n'.repeat(50)} ${i}\x1b[?7h\r\n`);
    if (i % 19 === 0) parts.push(`\x1b[1;38;5;${i}m${'s'.repeat(45)}\x1b[0m\r\n`);
    if (i % 23 === 0) parts.push(i % 46 === 0 ? { cols: 23, rows: 7 } : { cols: 40, rows: 10 });
  }
  return parts;
}

/** Feed `input` to the patched xterm and to the published one; their buffers must be identical. */
async function expectAsPublished(input: (string | Resize)[], scrollback: number): Promise<void> {
  // The published build, loaded from the pristine copy beside the patched one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const published = require(path.join(pristine, 'lib-headless', 'xterm-headless.js')) as {
    Terminal: TerminalClass;
  };
  const patched = makeTerminal(Terminal, scrollback);
  const reference = makeTerminal(published.Terminal, scrollback);
  try {
    for (const part of input) {
      if (typeof part === 'string') {
        await write(patched, part);
        await write(reference, part);
      } else {
        patched.resize(part.cols, part.rows);
        reference.resize(part.cols, part.rows);
      }
    }
    const expected = snapshot(reference);
    expect(expected.length).toBeGreaterThan(20);
    expect(snapshot(patched)).toEqual(expected);
    expect(rawRows(patched)).toEqual(rawRows(reference));
    expect(linkRows(patched)).toEqual(linkRows(reference));
  } finally {
    patched.dispose();
    reference.dispose();
  }
}

describe('the patched scroll and print', () => {
  test.each([
    ['a full short scrollback (rows recycled at once)', 20, false],
    ['a scrollback that fills part-way through', 600, false],
    ['rows that shrink and grow between writes', 20, true],
  ])('leaves the buffer exactly as published xterm does, with %s', (_name, scrollback, resizes) =>
    expectAsPublished(scrollHeavyInput(resizes), scrollback),
  );

  test('prints every kind of text exactly as published xterm does', () =>
    expectAsPublished(printHeavyInput(), 600));

  test('a recycled row does not keep the combining characters or underline colours it held', async () => {
    const terminal = makeTerminal(Terminal, 5);
    try {
      await write(terminal, `\x1b[4:3m\x1b[58;5;196mu\x1b[0m e\u0301\r\n`);
      await write(terminal, 'x\r\n'.repeat(100));
      const buffer = terminal.buffer.normal;
      const cell = buffer.getNullCell();
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y)!;
        expect(line.translateToString(true)).toMatch(/^x?$/);
        for (let x = 0; x < 3; x++) {
          line.getCell(x, cell);
          expect(cell.isUnderline()).toBe(0);
          expect(cell.getChars()).toMatch(/^x?$/);
        }
      }
    } finally {
      terminal.dispose();
    }
  });
});
