import { WIDE_RIGHT, type ScreenCell, type ScreenLine } from '../../../src/client/attach/render/cells';
import { diffDraw, settleWideCells, type TerminalPosition } from '../../../src/client/attach/render/draw';
import {
  DEFAULT_ATTR,
  SgrTable,
  flipInverse,
  isInverse,
  packedParams,
} from '../../../src/client/attach/render/sgr';

const blankRows = (cols: number, rows: number): ScreenLine[] =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, (): ScreenCell => [DEFAULT_ATTR, ' ']));

describe('diffDraw', () => {
  const sgr = new SgrTable();
  const paramsOf = (a: number): string => sgr.paramsOf(a);

  test('an unchanged buffer writes nothing', () => {
    const back = blankRows(4, 2);
    expect(diffDraw(back, blankRows(4, 2), paramsOf, { x: -1, y: -1 })).toBe('');
  });

  test('a changed cell is written after a CUP, and the front buffer takes it', () => {
    const back = blankRows(4, 2);
    const front = blankRows(4, 2);
    back[1]![2] = [DEFAULT_ATTR, 'x'];
    const at: TerminalPosition = { x: -1, y: -1 };
    expect(diffDraw(back, front, paramsOf, at)).toBe('\x1b[2;3Hx');
    expect(front[1]![2]).toEqual([DEFAULT_ATTR, 'x']);
    expect(at).toEqual({ x: 3, y: 1 });
    expect(diffDraw(back, front, paramsOf, at)).toBe('');
  });

  test('a gap on the same row is jumped with CUF, or rewritten when short and in the same rendition', () => {
    const back = blankRows(20, 1);
    back[0]![0] = [DEFAULT_ATTR, 'a'];
    back[0]![3] = [DEFAULT_ATTR, 'b'];
    back[0]![12] = [DEFAULT_ATTR, 'c'];
    expect(diffDraw(back, blankRows(20, 1), paramsOf, { x: -1, y: -1 })).toBe('\x1b[1Ha  b\x1b[8Cc');
  });

  test('renditions are set as a reset plus full parameters and reset at the end', () => {
    const back = blankRows(3, 1);
    const red = sgr.attr('1;38;2;255;0;0');
    back[0]![0] = [red, 'r'];
    back[0]![1] = [red, 'r'];
    back[0]![2] = [DEFAULT_ATTR, 'd'];
    expect(diffDraw(back, blankRows(3, 1), paramsOf, { x: -1, y: -1 })).toBe(
      '\x1b[1H\x1b[0;1;38;2;255;0;0mrr\x1b[md',
    );
  });

  test('a wide glyph is written once for both its cells and compared as a pair', () => {
    const back = blankRows(4, 1);
    back[0]![1] = [DEFAULT_ATTR, '中'];
    back[0]![2] = [DEFAULT_ATTR, WIDE_RIGHT];
    const front = blankRows(4, 1);
    expect(diffDraw(back, front, paramsOf, { x: -1, y: -1 })).toBe('\x1b[1;2H中');
    expect(front[0]![2]).toEqual([DEFAULT_ATTR, WIDE_RIGHT]);
    expect(diffDraw(back, front, paramsOf, { x: -1, y: -1 })).toBe('');
  });

  test('writing the last column leaves the position unknown (a pending wrap)', () => {
    const back = blankRows(3, 2);
    back[0]![2] = [DEFAULT_ATTR, 'x'];
    back[1]![0] = [DEFAULT_ATTR, 'y'];
    const at: TerminalPosition = { x: -1, y: -1 };
    expect(diffDraw(back, blankRows(3, 2), paramsOf, at)).toBe('\x1b[1;3Hx\x1b[2Hy');
  });

  test('settleWideCells blanks a right half that no glyph precedes', () => {
    const line: ScreenLine = [
      [DEFAULT_ATTR, WIDE_RIGHT],
      [DEFAULT_ATTR, '中'],
      [DEFAULT_ATTR, WIDE_RIGHT],
      [DEFAULT_ATTR, WIDE_RIGHT],
    ];
    settleWideCells([line]);
    expect(line.map((c) => c[1])).toEqual([' ', '中', WIDE_RIGHT, ' ']);
  });
});

describe('SGR attributes', () => {
  test("unblessed's packed attributes read as the SGR its own draw writes", () => {
    const bold = 1 << 18;
    const inverse = 8 << 18;
    expect(packedParams(DEFAULT_ATTR)).toBe('');
    expect(packedParams((0x1ff << 9) | 0x1ff | bold)).toBe('1');
    expect(packedParams((2 << 9) | 0x1ff)).toBe('32');
    expect(packedParams((9 << 9) | 4)).toBe('44;91');
    expect(packedParams((200 << 9) | 17 | inverse)).toBe('7;48;5;17;38;5;200');
  });

  test('inverse is found by walking the parameters, not in colour numbers', () => {
    expect(isInverse('7')).toBe(true);
    expect(isInverse('1;7')).toBe(true);
    expect(isInverse('38;5;7')).toBe(false);
    expect(isInverse('38;2;7;7;7')).toBe(false);
    expect(isInverse('7;27')).toBe(false);
    expect(flipInverse('')).toBe('7');
    expect(flipInverse('31')).toBe('31;7');
    expect(flipInverse('1;7')).toBe('1;7;27');
  });

  test('extended attributes sit above every packed one and keep their parameters', () => {
    const table = new SgrTable(2);
    const a = table.attr('38;2;1;2;3');
    expect(a).toBeGreaterThan((0x1ff << 18) | (0x1ff << 9) | 0x1ff);
    expect(table.attr('38;2;1;2;3')).toBe(a);
    expect(table.paramsOf(a)).toBe('38;2;1;2;3');
    expect(table.attr('')).toBe(DEFAULT_ATTR);
    expect(table.paramsOf(table.inverse(a))).toBe('38;2;1;2;3;7');
    expect(table.full).toBe(true);
    table.clear();
    expect(table.full).toBe(false);
  });
});
