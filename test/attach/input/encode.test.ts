import { InputDecoder } from '../../../src/client/attach/input/decoder';
import {
  encodeFocus,
  encodeMouse,
  encodePaste,
  osc52,
  type MouseEventLike,
} from '../../../src/client/attach/input/encode';
import type { PaneModes } from '../../../src/protocol/attach';

const plain = { shift: false, alt: false, ctrl: false };
const press: MouseEventLike = { action: 'press', button: 0, ...plain };
const release: MouseEventLike = { action: 'release', button: 0, ...plain };
const drag: MouseEventLike = { action: 'motion', button: 0, ...plain };
const move: MouseEventLike = { action: 'motion', button: 3, ...plain };
const wheelUp: MouseEventLike = { action: 'press', button: 4, ...plain };
const [X, Y] = [4, 2];

function modes(mouse: PaneModes['mouse'], mouseSgr = true): Pick<PaneModes, 'mouse' | 'mouseSgr'> {
  return { mouse, mouseSgr };
}

describe('mouse for a pane', () => {
  test('SGR form with 1-based cells, M for press and motion, m for release', () => {
    const m = modes('any');
    expect(encodeMouse(press, m, X, Y)).toBe('\x1b[<0;5;3M');
    expect(encodeMouse(release, m, X, Y)).toBe('\x1b[<0;5;3m');
    expect(encodeMouse({ ...release, button: 2 }, m, X, Y)).toBe('\x1b[<2;5;3m');
    expect(encodeMouse(drag, m, X, Y)).toBe('\x1b[<32;5;3M');
    expect(encodeMouse(move, m, X, Y)).toBe('\x1b[<35;5;3M');
    expect(encodeMouse(wheelUp, m, X, Y)).toBe('\x1b[<64;5;3M');
    expect(encodeMouse({ ...wheelUp, button: 5 }, m, X, Y)).toBe('\x1b[<65;5;3M');
    expect(encodeMouse({ ...press, button: 8 }, m, X, Y)).toBe('\x1b[<128;5;3M');
  });

  test('modifiers are added to the button code', () => {
    expect(encodeMouse({ ...press, shift: true, alt: true, ctrl: true }, modes('vt200'), X, Y)).toBe(
      '\x1b[<28;5;3M',
    );
    expect(encodeMouse({ ...press, ctrl: true }, modes('vt200', false), X, Y)).toBe(
      '\x1b[M' + '\x30\x25\x23',
    );
  });

  test('the X10 form: button, column and row as 32 + value', () => {
    const m = modes('any', false);
    expect(encodeMouse(press, m, X, Y)).toBe('\x1b[M' + String.fromCharCode(32, 37, 35));
    expect(encodeMouse({ ...press, button: 2 }, m, X, Y)).toBe('\x1b[M' + String.fromCharCode(34, 37, 35));
    expect(encodeMouse(release, m, X, Y)).toBe('\x1b[M' + String.fromCharCode(35, 37, 35));
    expect(encodeMouse(drag, m, X, Y)).toBe('\x1b[M' + String.fromCharCode(64, 37, 35));
    expect(encodeMouse(wheelUp, m, X, Y)).toBe('\x1b[M' + String.fromCharCode(96, 37, 35));
  });

  test('the X10 form stops at column and row 223, SGR does not', () => {
    expect(encodeMouse(press, modes('vt200', false), 222, 0)).toBe(
      '\x1b[M' + String.fromCharCode(32, 255, 33),
    );
    expect(encodeMouse(press, modes('vt200', false), 223, 0)).toBeUndefined();
    expect(encodeMouse(press, modes('vt200', false), 0, 223)).toBeUndefined();
    expect(encodeMouse(press, modes('vt200'), 500, 300)).toBe('\x1b[<0;501;301M');
  });

  test('a cell outside the pane is not reported', () => {
    expect(encodeMouse(press, modes('any'), -1, 0)).toBeUndefined();
  });

  const levels: Array<[PaneModes['mouse'], Record<string, boolean>]> = [
    ['none', { press: false, release: false, drag: false, move: false, wheel: false }],
    ['x10', { press: true, release: false, drag: false, move: false, wheel: true }],
    ['vt200', { press: true, release: true, drag: false, move: false, wheel: true }],
    ['drag', { press: true, release: true, drag: true, move: false, wheel: true }],
    ['any', { press: true, release: true, drag: true, move: true, wheel: true }],
  ];
  test.each(levels)('tracking level %s reports what it should', (level, expected) => {
    const events = { press, release, drag, move, wheel: wheelUp };
    for (const sgr of [true, false]) {
      const got = Object.fromEntries(
        Object.entries(events).map(([name, e]) => [
          name,
          encodeMouse(e, modes(level, sgr), X, Y) !== undefined,
        ]),
      );
      expect(got).toEqual(expected);
    }
  });

  test('x10 tracking reports no modifiers', () => {
    expect(encodeMouse({ ...press, ctrl: true, shift: true }, modes('x10'), X, Y)).toBe('\x1b[<0;5;3M');
  });

  test('a wheel release is never reported', () => {
    expect(encodeMouse({ ...wheelUp, action: 'release' }, modes('any'), X, Y)).toBeUndefined();
  });

  test('a decoded SGR report re-encodes to itself at the same cell', () => {
    const d = new InputDecoder({ now: () => 0 });
    for (const raw of [
      '\x1b[<0;10;5M',
      '\x1b[<2;10;5m',
      '\x1b[<32;11;5M',
      '\x1b[<35;1;1M',
      '\x1b[<65;3;3M',
      '\x1b[<20;7;8M',
    ]) {
      const [token] = d.feed(raw);
      if (token.kind !== 'mouse') throw new Error('not a mouse token');
      expect(encodeMouse(token, modes('any'), token.x, token.y)).toBe(raw);
    }
  });
});

describe('paste for a pane', () => {
  test('bracketed when the program asked for it', () => {
    expect(encodePaste('echo hi\r', { bracketedPaste: true })).toBe('\x1b[200~echo hi\r\x1b[201~');
  });

  test('the bare text otherwise', () => {
    expect(encodePaste('echo hi\r', { bracketedPaste: false })).toBe('echo hi\r');
  });

  test('markers inside the text are removed, even ones that removing others would make', () => {
    const evil = 'a\x1b[201~rm -rf ~\r\x1b[20\x1b[201~1~b';
    expect(encodePaste(evil, { bracketedPaste: true })).toBe('\x1b[200~arm -rf ~\rb\x1b[201~');
    expect(encodePaste(evil, { bracketedPaste: false })).toBe('arm -rf ~\rb');
  });
});

describe('focus for a pane', () => {
  test('reported only when the program asked', () => {
    expect(encodeFocus(true, { focusEvents: true })).toBe('\x1b[I');
    expect(encodeFocus(false, { focusEvents: true })).toBe('\x1b[O');
    expect(encodeFocus(true, { focusEvents: false })).toBeUndefined();
  });
});

describe('OSC 52', () => {
  test('carries the text as base64 of its UTF-8', () => {
    expect(osc52('hé ✓')).toBe(`\x1b]52;c;${Buffer.from('hé ✓').toString('base64')}\x07`);
    expect(osc52('hi')).toBe('\x1b]52;c;aGk=\x07');
  });
});
