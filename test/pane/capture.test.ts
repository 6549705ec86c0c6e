import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal, type IBufferCell } from '@xterm/headless';
import { MAX_CAPTURE_BYTES } from '../../src/server/pane';
import { disposeAll, exited, screen, shPane } from './pane-harness';

afterEach(disposeAll);

// Every attribute fux reproduces, in 16-colour, 256-colour and truecolor forms, alone and mixed,
// with a wide glyph on a background and a coloured blank run at a line end.
const PATTERN = [
  '\\033[31mred\\033[0m \\033[92mbright green\\033[0m \\033[45mmagenta bg\\033[0m \\033[103;30mbright yellow bg\\033[0m',
  '\\033[38;5;196mindexed 196\\033[0m \\033[38;5;1mindexed 1\\033[0m \\033[48;5;22mbg 22\\033[0m',
  '\\033[38;2;10;20;30mrgb fg\\033[0m \\033[48;2;200;100;50mrgb bg\\033[0m \\033[38;2;1;2;3;48;2;250;251;252mboth\\033[0m',
  '\\033[1mbold\\033[0m \\033[2mdim\\033[0m \\033[3mitalic\\033[0m \\033[4munder\\033[0m \\033[5mblink\\033[0m',
  '\\033[7minverse\\033[0m \\033[8minvisible\\033[0m \\033[9mstrike\\033[0m \\033[53mover\\033[0m',
  '\\033[1;3;4;31;48;5;17mmixed\\033[22mnot bold\\033[0m plain \\033[44m中文😀\\033[0m end',
  'tail \\033[42m      \\033[0m',
].join('\\r\\n');

const CELL_GETTERS = [
  'getChars',
  'getWidth',
  'getFgColorMode',
  'getFgColor',
  'getBgColorMode',
  'getBgColor',
  'isBold',
  'isDim',
  'isItalic',
  'isUnderline',
  'isBlink',
  'isInverse',
  'isInvisible',
  'isStrikethrough',
  'isOverline',
] as const;

/** Everything the public cell API says about a cell, read independently of the code under test. */
function describeCell(cell: IBufferCell): string {
  return CELL_GETTERS.map((getter) => `${getter}=${String(cell[getter]())}`).join(' ');
}

function cellsOf(terminal: Terminal, rows: number): string[] {
  const cells: string[] = [];
  const buffer = terminal.buffer.active;
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.baseY + y)!;
    for (let x = 0; x < terminal.cols; x++) cells.push(`${x},${y} ${describeCell(line.getCell(x)!)}`);
  }
  return cells;
}

function freshTerminal(cols: number, rows: number): Terminal {
  const terminal = new Terminal({ cols, rows, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

function written(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

describe('capturing a pane', () => {
  test('gives the viewport as right-trimmed lines joined by newlines, with size and cursor', async () => {
    const pane = shPane("printf 'one   \\r\\n  two\\r\\n\\r\\nfour'", { cols: 40, rows: 5 });
    await exited(pane);
    expect(pane.capture({ attrs: false, scrollback: 0 })).toEqual({
      text: 'one\n  two\n\nfour\n',
      lines: 5,
      truncated: false,
      cursor: { x: 4, y: 3 },
      cols: 40,
      rows: 5,
    });
  });

  test('writes a wide glyph once though it fills two cells', async () => {
    const pane = shPane("printf '中文😀x'", { cols: 20, rows: 2 });
    await exited(pane);
    expect(screen(pane).split('\n')[0]).toBe('中文😀x');
    const line = pane.terminal.buffer.active.getLine(0)!;
    expect([0, 1, 2, 3, 4, 5, 6].map((x) => line.getCell(x)!.getWidth())).toEqual([2, 0, 2, 0, 2, 0, 1]);
    expect(line.getCell(6)!.getChars()).toBe('x');
  });

  test('decodes a 4-byte emoji whose bytes arrive in two separate reads', async () => {
    // The child stops between the halves until the test, having seen the first half parsed,
    // sends a line; with echo off nothing else reaches the terminal in between.
    const pane = shPane("stty -echo; printf '\\360\\237'; read go; printf '\\230\\200 done'", {
      cols: 20,
      rows: 2,
    });
    await new Promise<void>((resolve) => pane.once('output', resolve));
    expect(screen(pane)).toBe('\n');
    pane.write('\r');
    await exited(pane);
    expect(screen(pane).split('\n')[0]).toBe('😀 done');
    expect(pane.terminal.buffer.active.getLine(0)!.getCell(0)!.getWidth()).toBe(2);
  });

  test('with attrs, writes SGR on each change of rendition and resets at the line end', async () => {
    const pane = shPane("printf '\\033[1;31mred\\033[0m plain \\033[38;2;1;2;3mrgb'", { cols: 40, rows: 2 });
    await exited(pane);
    expect(pane.capture({ attrs: true, scrollback: 0 }).text).toBe(
      '\x1b[0;1;31mred\x1b[0m plain \x1b[0;38;2;1;2;3mrgb\x1b[0m\n',
    );
  });

  test('with attrs, reproduces every cell when fed to a fresh terminal (7 lines, 16/256/rgb colours, 9 attributes)', async () => {
    const cols = 80;
    const rows = 8;
    const pane = shPane(`printf '${PATTERN}'`, { cols, rows });
    await exited(pane);
    const capture = pane.capture({ attrs: true, scrollback: 0 });
    expect(capture.lines).toBe(rows);

    const replay = freshTerminal(cols, rows);
    await written(replay, capture.text.split('\n').join('\r\n'));
    const original = cellsOf(pane.terminal, rows);
    expect(cellsOf(replay, rows)).toEqual(original);
    // The comparison has teeth: the pattern really left styled cells behind.
    expect(original.filter((cell) => !cell.includes('getFgColorMode=0 ')).length).toBeGreaterThan(50);
    replay.dispose();
  });

  test('includes the requested lines of history above the viewport', async () => {
    const pane = shPane('seq 1 100', { cols: 40, rows: 10 });
    await exited(pane);
    expect(pane.capture({ attrs: false, scrollback: 0 }).text).toBe(
      ['92', '93', '94', '95', '96', '97', '98', '99', '100', ''].join('\n'),
    );
    const withHistory = pane.capture({ attrs: false, scrollback: 5 });
    expect(withHistory.lines).toBe(15);
    expect(withHistory.text.split('\n').slice(0, 6)).toEqual(['87', '88', '89', '90', '91', '92']);
    const everything = pane.capture({ attrs: false, scrollback: 1000 });
    expect(everything.text).toBe([...Array.from({ length: 100 }, (_, i) => String(i + 1)), ''].join('\n'));
    expect(everything.truncated).toBe(false);
  });

  test.each([false, true])(
    'cuts a capture over 128 KiB to its newest lines and says so (attrs: %s)',
    async (attrs) => {
      const pane = shPane('seq 1 50000', { cols: 40, rows: 10, scrollback: 60_000 });
      await exited(pane);
      const capture = pane.capture({ attrs, scrollback: 60_000 });
      expect(capture.truncated).toBe(true);
      expect(Buffer.byteLength(capture.text)).toBeLessThanOrEqual(MAX_CAPTURE_BYTES);
      // Close to the cap: a line of at most 6 bytes is all that could not fit.
      expect(Buffer.byteLength(capture.text)).toBeGreaterThan(MAX_CAPTURE_BYTES - 7);
      const lines = capture.text.split('\n');
      expect(lines.length).toBe(capture.lines);
      expect(lines.slice(-2)).toEqual(['50000', '']);
      const first = Number(lines[0]);
      expect(lines.slice(0, -1)).toEqual(
        Array.from({ length: 50000 - first + 1 }, (_, i) => String(first + i)),
      );
    },
  );
});

describe('terminal behaviour of a pane', () => {
  test('takes the title from OSC 0 and OSC 2 and emits each change once', async () => {
    const pane = shPane("printf '\\033]0;first\\007\\033]0;first\\007\\033]2;second\\033\\\\'; read go");
    const titles: string[] = [];
    pane.on('title', (title) => titles.push(title));
    await new Promise<void>((resolve) => pane.on('title', (t) => t === 'second' && resolve()));
    expect(titles).toEqual(['first', 'second']);
    expect(pane.title).toBe('second');
  });

  test('caps a title at 256 characters', async () => {
    const pane = shPane(`printf '\\033]2;${'x'.repeat(300)}\\007'`);
    await exited(pane);
    expect(pane.title).toBe('x'.repeat(256));
  });

  test('counts bells and emits one event per bell', async () => {
    const pane = shPane("printf 'a\\007b\\007c\\007'");
    let events = 0;
    pane.on('bell', () => events++);
    await exited(pane);
    expect(pane.bellCount).toBe(3);
    expect(events).toBe(3);
  });

  test("answers a program's cursor position request (DSR) through its pty", async () => {
    // Move to row 3, column 5, ask where the cursor is, read the 6-byte reply raw and show it.
    const pane = shPane(
      "stty raw -echo; printf '\\033[3;5H\\033[6n'; r=$(dd bs=1 count=6 2>/dev/null); stty sane; " +
        'printf \'\\r\\nreply=%s\\r\\n\' "$(printf %s "$r" | tr \'\\033\' E)"',
    );
    await exited(pane);
    expect(screen(pane)).toContain('reply=E[3;5R');
  });

  test('a resize reaches the program (stty size) and a resize to the same size sends no SIGWINCH', async () => {
    const pane = shPane(
      "n=0; trap 'n=$((n+1))' WINCH; stty -echo; echo ready; " +
        // A trapped signal interrupts `read`, so an interrupted read just goes round again.
        'while :; do if read line; then echo "winches=$n size=$(stty size)"; fi; done',
    );
    await untilText(pane, 'ready');
    pane.resize(80, 24);
    pane.write('\r');
    await untilText(pane, 'winches=0 size=24 80');
    pane.resize(100, 30);
    expect([pane.terminal.cols, pane.terminal.rows]).toEqual([100, 30]);
    pane.write('\r');
    await untilText(pane, 'winches=1 size=30 100');
    expect(pane.capture({ attrs: false, scrollback: 0 })).toMatchObject({ cols: 100, rows: 30 });
  });

  test('refuses a resize to zero or a fraction', () => {
    const pane = shPane('exec sleep 100');
    expect(() => pane.resize(0, 10)).toThrow(RangeError);
    expect(() => pane.resize(10.5, 10)).toThrow(RangeError);
  });
});

function untilText(pane: ReturnType<typeof shPane>, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`no ${text} on screen:\n${screen(pane)}`)), 10_000);
    const check = (): void => {
      if (!screen(pane).includes(text)) return;
      clearTimeout(deadline);
      pane.off('output', check);
      resolve();
    };
    pane.on('output', check);
    check();
  });
}
