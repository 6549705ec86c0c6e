import { CopyMode, type CopyResult } from '../../../src/client/attach/copy/copy-mode';
import { InputDecoder } from '../../../src/client/attach/input/decoder';
import type { MouseToken } from '../../../src/client/attach/input/tokens';
import { expandRow, plainText, type Cell } from '../../../src/client/attach/runs';
import type { Row } from '../../../src/protocol/attach';

/** Characters the test rows draw two cells wide. */
const WIDE = new Set(['界', '😀']);

function runs(text: string): Row {
  return [...text].map((ch) => (WIDE.has(ch) ? ([0, ch, 2] as const) : ([0, ch] as const))) as Row;
}

function cells(text: string, cols: number): Cell[] {
  return expandRow(runs(text), cols);
}

/** Copy mode over `history` rows then `screen` rows, the viewport as tall as the screen. */
function copyMode(
  history: string[],
  screen: string[],
  opts: { cols?: number; cursor?: { x: number; y: number } } = {},
) {
  const cols = opts.cols ?? 20;
  return new CopyMode({
    lines: [...history, ...screen].map((t) => cells(t, cols)),
    screenTop: history.length,
    cols,
    height: screen.length,
    cursor: opts.cursor,
  });
}

/** Types `keys` (as terminal input) into copy mode; the results of each key. */
function type(cm: CopyMode, keys: string): CopyResult[] {
  const d = new InputDecoder({ now: () => 0 });
  return [...d.feed(keys), ...d.end()].map((t) => cm.handle(t));
}

function last(results: CopyResult[]): CopyResult {
  return results[results.length - 1];
}

function mouse(action: MouseToken['action'], x: number, y: number, button = 0): MouseToken {
  const token: MouseToken = {
    kind: 'mouse',
    raw: '',
    action,
    button,
    x,
    y,
    shift: false,
    alt: false,
    ctrl: false,
  };
  if (button === 4) token.wheel = 'up';
  if (button === 5) token.wheel = 'down';
  return token;
}

const numbered = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `line ${from + i}`);

describe('entering', () => {
  test('the view shows the screen and the cursor is where the live cursor was', () => {
    const cm = copyMode(numbered(10), ['$ ls', 'a b', '$ '], { cursor: { x: 2, y: 2 } });
    const view = cm.view();
    expect(view.lines.map(plainText)).toEqual(['$ ls', 'a b', '$']);
    expect(view.cursor).toEqual({ x: 2, y: 2 });
    expect(view.selection).toEqual([]);
    expect(view.label).toBe('[0/10]');
  });

  test('without a live cursor it starts at the bottom of the screen', () => {
    const cm = copyMode(numbered(3), ['a', 'b']);
    expect(cm.view().cursor).toEqual({ x: 0, y: 1 });
    expect(cm.position()).toEqual({ row: 4, col: 0 });
  });

  test('from the history the server sends, runs expanded', () => {
    const cm = CopyMode.fromHistory(
      {
        lines: [
          [[0, 'old']],
          [
            [1, 'new'],
            [0, '界', 2],
          ],
        ],
        styles: {},
        screenTop: 1,
        cols: 8,
      },
      1,
    );
    expect(cm.view().lines.map(plainText)).toEqual(['new界']);
    expect(cm.view().lines[0]).toHaveLength(8);
    expect(type(cm, 'k')[0].redraw).toBe(true);
    expect(cm.view().lines.map(plainText)).toEqual(['old']);
  });

  test('a history shorter than the viewport is padded with blank rows', () => {
    const cm = copyMode([], ['only'], { cols: 6 });
    cm.resize(3);
    expect(cm.view().lines.map(plainText)).toEqual(['only', '', '']);
    expect(cm.view().label).toBe('[0/0]');
  });
});

describe('moving', () => {
  test('h j k l and the arrows move one cell, stopping at the edges', () => {
    const cm = copyMode(['abc', 'def'], ['ghi'], { cols: 5, cursor: { x: 0, y: 0 } });
    type(cm, 'h');
    expect(cm.position()).toEqual({ row: 2, col: 0 });
    type(cm, 'llll');
    expect(cm.position()).toEqual({ row: 2, col: 4 });
    type(cm, 'll');
    expect(cm.position()).toEqual({ row: 2, col: 4 });
    type(cm, 'kkk');
    expect(cm.position()).toEqual({ row: 0, col: 4 });
    type(cm, '\x1b[B\x1b[D\x1b[D');
    expect(cm.position()).toEqual({ row: 1, col: 2 });
    type(cm, '\x1b[A\x1b[C');
    expect(cm.position()).toEqual({ row: 0, col: 3 });
  });

  test('moving above the view scrolls it', () => {
    const cm = copyMode(numbered(5), ['s0', 's1'], { cursor: { x: 0, y: 0 } });
    type(cm, 'k');
    expect(cm.view().lines.map(plainText)).toEqual(['line 4', 's0']);
    expect(cm.view().cursor).toEqual({ x: 0, y: 0 });
    expect(cm.view().label).toBe('[1/5]');
  });

  test('a count repeats a motion', () => {
    const cm = copyMode(numbered(10), ['x'], { cursor: { x: 0, y: 0 } });
    type(cm, '3k');
    expect(cm.position().row).toBe(7);
    type(cm, '12k');
    expect(cm.position().row).toBe(0);
    type(cm, '2l');
    expect(cm.position().col).toBe(2);
  });

  test('vertical moves keep the column they started from', () => {
    const cm = copyMode(['long line here', 'ab', 'another long'], [''], { cursor: { x: 0, y: 0 } });
    type(cm, 'kkk$');
    expect(cm.position()).toEqual({ row: 0, col: 13 });
    type(cm, 'j');
    expect(cm.position()).toEqual({ row: 1, col: 13 });
    type(cm, 'j');
    expect(cm.position()).toEqual({ row: 2, col: 13 });
  });

  test('w b e move by vi words, punctuation its own word, across rows', () => {
    const cm = copyMode(['foo bar-baz  qux', 'next'], [''], { cursor: { x: 0, y: 0 } });
    type(cm, 'gw');
    expect(cm.position()).toEqual({ row: 0, col: 4 });
    type(cm, 'w');
    expect(cm.position()).toEqual({ row: 0, col: 7 });
    type(cm, 'w');
    expect(cm.position()).toEqual({ row: 0, col: 8 });
    type(cm, 'w');
    expect(cm.position()).toEqual({ row: 0, col: 13 });
    type(cm, 'w');
    expect(cm.position()).toEqual({ row: 1, col: 0 });
    type(cm, 'b');
    expect(cm.position()).toEqual({ row: 0, col: 13 });
    type(cm, 'bb');
    expect(cm.position()).toEqual({ row: 0, col: 7 });
    type(cm, 'e');
    expect(cm.position()).toEqual({ row: 0, col: 10 });
    type(cm, 'e');
    expect(cm.position()).toEqual({ row: 0, col: 15 });
    type(cm, 'e');
    expect(cm.position()).toEqual({ row: 1, col: 3 });
  });

  test('0 ^ $ go to the row start, its first and its last non-blank', () => {
    const cm = copyMode([], ['   indented text  '], { cursor: { x: 8, y: 0 } });
    type(cm, '^');
    expect(cm.position().col).toBe(3);
    type(cm, '$');
    expect(cm.position().col).toBe(15);
    type(cm, '0');
    expect(cm.position().col).toBe(0);
  });

  test('g and G go to the top of the history and the bottom of the screen', () => {
    const cm = copyMode(numbered(50), ['a', 'b', 'end here'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g');
    expect(cm.position()).toEqual({ row: 0, col: 0 });
    expect(cm.view().lines.map(plainText)).toEqual(['line 0', 'line 1', 'line 2']);
    expect(cm.view().label).toBe('[50/50]');
    type(cm, 'G');
    expect(cm.position()).toEqual({ row: 52, col: 7 });
    expect(cm.view().label).toBe('[0/50]');
  });

  test('C-u and C-d move half a page, C-b C-f PageUp PageDown a page, view and cursor together', () => {
    const cm = copyMode(numbered(100), numbered(10, 100), { cursor: { x: 0, y: 9 } });
    type(cm, '\x15');
    expect(cm.view().label).toBe('[5/100]');
    expect(cm.view().cursor.y).toBe(9);
    type(cm, '\x02');
    expect(cm.view().label).toBe('[15/100]');
    type(cm, '\x1b[5~');
    expect(cm.view().label).toBe('[25/100]');
    expect(cm.position().row).toBe(109 - 25);
    type(cm, '\x04\x06\x1b[6~');
    expect(cm.view().label).toBe('[0/100]');
    expect(cm.position().row).toBe(109);
  });

  test('C-y and C-e scroll a row, keeping the cursor on its row while it stays in view', () => {
    const cm = copyMode(numbered(10), ['a', 'b', 'c'], { cursor: { x: 0, y: 0 } });
    type(cm, '\x19');
    expect(cm.view().label).toBe('[1/10]');
    expect(cm.position().row).toBe(10);
    type(cm, '\x19');
    expect(cm.position().row).toBe(10);
    type(cm, '\x19');
    expect(cm.position().row).toBe(9);
    type(cm, '\x05');
    expect(cm.view().label).toBe('[2/10]');
  });

  test('H M L go to the top, middle and bottom rows of the view', () => {
    const cm = copyMode(numbered(20), ['0', '1', '2', '3', '4'], { cursor: { x: 0, y: 4 } });
    type(cm, 'H');
    expect(cm.view().cursor.y).toBe(0);
    type(cm, 'M');
    expect(cm.view().cursor.y).toBe(2);
    type(cm, 'L');
    expect(cm.view().cursor.y).toBe(4);
    expect(cm.view().label).toBe('[0/20]');
  });

  test('the cursor steps over the right half of a wide glyph', () => {
    const cm = copyMode([], ['a界b'], { cursor: { x: 0, y: 0 } });
    type(cm, 'l');
    expect(cm.position().col).toBe(1);
    type(cm, 'l');
    expect(cm.position().col).toBe(3);
    type(cm, 'h');
    expect(cm.position().col).toBe(1);
  });

  test('a key that does nothing asks for no redraw', () => {
    const cm = copyMode([], ['a']);
    expect(type(cm, 'Z')).toEqual([{ redraw: false }]);
  });
});

describe('selecting and yanking', () => {
  test('v selects from where it was pressed to the cursor; y yanks it and leaves', () => {
    const cm = copyMode(['hello world'], ['second line'], { cursor: { x: 0, y: 0 } });
    type(cm, 'k6lvj4l');
    expect(cm.view().cursor).toEqual({ x: 10, y: 0 });
    expect(cm.view().selection).toEqual([{ y: 0, from: 0, to: 11 }]);
    const result = last(type(cm, 'y'));
    expect(result).toEqual({ redraw: false, exit: true, yank: 'world\nsecond line' });
  });

  test('the selection shows per viewport row, ends included', () => {
    const cm = copyMode(['hello world', 'two'], ['three'], { cols: 12, cursor: { x: 0, y: 0 } });
    cm.resize(3);
    type(cm, 'kk6lvj');
    expect(cm.view().selection).toEqual([
      { y: 0, from: 6, to: 12 },
      { y: 1, from: 0, to: 7 },
    ]);
  });

  test('selecting backwards selects the same cells', () => {
    const cm = copyMode([], ['abcdef'], { cursor: { x: 4, y: 0 } });
    type(cm, 'vhh');
    expect(cm.view().selection).toEqual([{ y: 0, from: 2, to: 5 }]);
    expect(last(type(cm, '\r')).yank).toBe('cde');
  });

  test('v again clears the selection', () => {
    const cm = copyMode([], ['abc'], { cursor: { x: 0, y: 0 } });
    type(cm, 'vlv');
    expect(cm.view().selection).toEqual([]);
    type(cm, ' l');
    expect(cm.view().selection).toEqual([{ y: 0, from: 1, to: 3 }]);
  });

  test('V selects whole rows; yanking takes them with their trailing blanks trimmed', () => {
    const cm = copyMode(['first   ', 'second'], ['third'], { cursor: { x: 3, y: 0 } });
    cm.resize(3);
    type(cm, 'kkVj');
    expect(cm.view().selection).toEqual([
      { y: 0, from: 0, to: 20 },
      { y: 1, from: 0, to: 20 },
    ]);
    expect(last(type(cm, 'y')).yank).toBe('first\nsecond');
  });

  test('v after V turns the row selection into a character selection', () => {
    const cm = copyMode([], ['abcdef'], { cursor: { x: 1, y: 0 } });
    type(cm, 'Vllv');
    expect(cm.view().selection).toEqual([{ y: 0, from: 1, to: 4 }]);
  });

  test('a wide glyph is copied once, and selecting its cell takes both halves', () => {
    const cm = copyMode([], ['a界b😀c'], { cursor: { x: 0, y: 0 } });
    type(cm, 'vl');
    expect(cm.view().selection).toEqual([{ y: 0, from: 0, to: 3 }]);
    expect(last(type(cm, '$y')).yank).toBe('a界b😀c');
  });

  test('yanking with nothing selected leaves without copying', () => {
    expect(last(type(copyMode([], ['a']), 'y'))).toEqual({ redraw: false, exit: true });
  });
});

describe('searching', () => {
  const history = ['alpha one', 'beta two', 'gamma one', 'delta'];

  test('/ shows the prompt as it is typed; Enter goes to the next match', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g/on');
    expect(cm.view().label).toBe('/on');
    type(cm, 'e');
    expect(cm.view().label).toBe('/one');
    type(cm, '\r');
    expect(cm.position()).toEqual({ row: 0, col: 6 });
    expect(cm.view().label).toMatch(/^\[\d+\/\d+\]$/);
  });

  test('n repeats the search, N goes the other way, and wrapping says so', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g/one\r');
    type(cm, 'n');
    expect(cm.position()).toEqual({ row: 2, col: 6 });
    type(cm, 'n');
    expect(cm.position()).toEqual({ row: 0, col: 6 });
    expect(cm.view().label).toMatch(/search wrapped$/);
    type(cm, 'N');
    expect(cm.position()).toEqual({ row: 2, col: 6 });
    type(cm, 'j');
    expect(cm.view().label).toMatch(/^\[\d+\/\d+\]$/);
  });

  test('? searches backwards from the cursor', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    type(cm, '?a\r');
    expect(cm.position()).toEqual({ row: 3, col: 4 });
    type(cm, 'n');
    expect(cm.position()).toEqual({ row: 2, col: 4 });
  });

  test('a miss says so and leaves the cursor where it was', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 2, y: 0 } });
    type(cm, '/zeta\r');
    expect(cm.view().label).toBe('not found: zeta');
    expect(cm.position()).toEqual({ row: 4, col: 2 });
  });

  test('Esc cancels the prompt without moving or leaving', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    const results = type(cm, '/one\x1b');
    expect(results.some((r) => r.exit)).toBe(false);
    expect(cm.position()).toEqual({ row: 4, col: 0 });
    expect(cm.view().label).toBe('[0/4]');
  });

  test('Backspace edits the query and an empty Enter repeats the last search', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g/betx\x7fa\r');
    expect(cm.position()).toEqual({ row: 1, col: 0 });
    type(cm, 'g/\r');
    expect(cm.position()).toEqual({ row: 1, col: 0 });
  });

  test('a lower-case query matches any case; one with a capital matches exactly', () => {
    const cm = copyMode(['Error here', 'error there'], ['x'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g/error\r');
    expect(cm.position()).toEqual({ row: 1, col: 0 });
    type(cm, 'n');
    expect(cm.position()).toEqual({ row: 0, col: 0 });
    type(cm, 'j/Error\r');
    expect(cm.position()).toEqual({ row: 0, col: 0 });
  });

  test('a match after a wide glyph is found at its cell', () => {
    const cm = copyMode([], ['界 find me'], { cursor: { x: 0, y: 0 } });
    type(cm, '/find\r');
    expect(cm.position()).toEqual({ row: 0, col: 3 });
  });

  test('a paste goes into the query', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    type(cm, 'g/\x1b[200~gamma\x1b[201~\r');
    expect(cm.position()).toEqual({ row: 2, col: 0 });
  });

  test('search moves extend a selection', () => {
    const cm = copyMode(history, ['prompt'], { cursor: { x: 0, y: 0 } });
    expect(last(type(cm, 'gv/two\ry')).yank).toBe('alpha one\nbeta t');
  });

  test('n with no search yet says so', () => {
    const cm = copyMode([], ['a']);
    type(cm, 'n');
    expect(cm.view().label).toBe('no previous search');
  });
});

describe('leaving', () => {
  test.each([
    ['q', 'q'],
    ['Esc', '\x1b'],
    ['C-c', '\x03'],
  ])('%s leaves without copying', (_name, raw) => {
    expect(last(type(copyMode([], ['a']), raw))).toEqual({ redraw: false, exit: true });
  });
});

describe('the mouse', () => {
  test('the wheel scrolls three rows and keeps the cursor in view', () => {
    const cm = copyMode(numbered(20), ['a', 'b', 'c', 'd'], { cursor: { x: 0, y: 3 } });
    expect(cm.handle(mouse('press', 0, 0, 4))).toEqual({ redraw: true });
    expect(cm.view().label).toBe('[3/20]');
    expect(cm.view().cursor.y).toBe(3);
    cm.handle(mouse('press', 0, 0, 4));
    expect(cm.view().label).toBe('[6/20]');
    expect(cm.view().cursor.y).toBe(3);
    cm.handle(mouse('press', 0, 0, 5));
    expect(cm.view().label).toBe('[3/20]');
  });

  test('scroll moves the view like the wheel; entered by the wheel, reaching the bottom leaves', () => {
    const lines = [...numbered(10), 'a', 'b'].map((t) => cells(t, 20));
    const cm = new CopyMode({ lines, screenTop: 10, cols: 20, height: 2, exitAtBottom: true });
    expect(cm.scroll(-5)).toEqual({ redraw: true });
    expect(cm.view().label).toBe('[5/10]');
    expect(cm.scroll(3)).toEqual({ redraw: true });
    expect(cm.scroll(3)).toEqual({ redraw: true, exit: true });
    const plain = new CopyMode({ lines, screenTop: 10, cols: 20, height: 2 });
    plain.scroll(-5);
    expect(plain.scroll(5)).toEqual({ redraw: true });
  });

  test('the wheel at the bottom does nothing', () => {
    const cm = copyMode(numbered(5), ['a']);
    expect(cm.handle(mouse('press', 0, 0, 5))).toEqual({ redraw: false });
  });

  test('a click moves the cursor and a drag selects', () => {
    const cm = copyMode([], ['hello world', 'more text'], { cursor: { x: 0, y: 0 } });
    cm.handle(mouse('press', 6, 0));
    expect(cm.view().cursor).toEqual({ x: 6, y: 0 });
    cm.handle(mouse('motion', 3, 1));
    cm.handle(mouse('release', 3, 1));
    expect(cm.view().selection).toEqual([
      { y: 0, from: 6, to: 20 },
      { y: 1, from: 0, to: 4 },
    ]);
    expect(last(type(cm, 'y')).yank).toBe('world\nmore');
  });

  test('dragging above the view scrolls it', () => {
    const cm = copyMode(numbered(5), ['a', 'b'], { cursor: { x: 0, y: 0 } });
    cm.handle(mouse('press', 0, 0));
    cm.handle(mouse('motion', 0, -1));
    expect(cm.view().label).toBe('[1/5]');
    expect(cm.position().row).toBe(4);
  });
});
