import { KEY_FORMS } from '../../src/protocol/keys';
import { encodeKeys, expandEscapes } from '../../src/protocol/send-keys';

const enc = (args: string[], appCursor = false): string => encodeKeys(args, { literal: false, appCursor });

describe('send-keys encoding', () => {
  test.each([
    ['Enter', '\r'],
    ['Tab', '\t'],
    ['Escape', '\x1b'],
    ['BSpace', '\x7f'],
    ['Space', ' '],
    ['C-c', '\x03'],
    ['C-a', '\x01'],
    ['C-[', '\x1b'],
    ['C-Space', '\x00'],
    ['M-x', '\x1bx'],
    ['M-Enter', '\x1b\r'],
    ['C-M-b', '\x1b\x02'],
    ['F1', '\x1bOP'],
    ['F12', '\x1b[24~'],
    ['PageUp', '\x1b[5~'],
    ['PgUp', '\x1b[5~'],
    ['PgDn', '\x1b[6~'],
    ['Delete', '\x1b[3~'],
    ['BTab', '\x1b[Z'],
    // Modifiers on cursor, navigation and function keys, as xterm sends them.
    ['C-Up', '\x1b[1;5A'],
    ['M-Up', '\x1b[1;3A'],
    ['S-Left', '\x1b[1;2D'],
    ['C-M-Right', '\x1b[1;7C'],
    ['C-Home', '\x1b[1;5H'],
    ['C-F5', '\x1b[15;5~'],
    ['S-F1', '\x1b[1;2P'],
    ['M-PgUp', '\x1b[5;3~'],
    ['C-Delete', '\x1b[3;5~'],
    // Lower case is text: `end` and `dc` are words (and a command) before they are keys.
    ['enter', 'enter'],
    ['end', 'end'],
    ['hello', 'hello'],
    ['C-x is text with a space', 'C-x is text with a space'],
  ])('%j sends %j', (arg, bytes) => {
    expect(enc([arg])).toBe(bytes);
  });

  test('the brief example: C-Up PgUp are two keys, not the text C-UpPgUp', () => {
    expect(enc(['C-Up', 'PgUp'])).toBe('\x1b[1;5A\x1b[5~');
  });

  test('cursor keys follow application cursor mode unless modified', () => {
    expect(enc(['Up', 'Down', 'Right', 'Left', 'Home', 'End'])).toBe('\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F');
    expect(enc(['Up', 'Left', 'Home', 'End'], true)).toBe('\x1bOA\x1bOD\x1bOH\x1bOF');
    expect(enc(['C-Up'], true)).toBe('\x1b[1;5A');
  });

  test.each(['C-Upp', 'F13', 'F0', 'M-Foo', 'S-nope', 'Super-Upp'])(
    'the unknown key name %j is an error naming it and listing the forms',
    (arg) => {
      expect(() => enc(['echo', arg])).toThrow(
        `unknown key ${arg}: ${KEY_FORMS}; --literal sends it as text`,
      );
    },
  );

  test.each(['S-Enter', 'C-1', 'Super-a'])('%j, a key no terminal has bytes for, is an error', (arg) => {
    expect(() => enc([arg])).toThrow(new RegExp(`^${arg}: a terminal has no bytes for this key`));
  });

  test('the forms name the modifiers and the key names', () => {
    expect(KEY_FORMS).toContain('PageUp/PgUp/PPage');
    expect(KEY_FORMS).toContain('F1-F12');
    expect(KEY_FORMS).toContain('C- (Ctrl), M- (Alt), S- (Shift)');
  });

  test('text expands \\x, \\u, \\e, \\n, \\r, \\t and keeps unknown escapes as typed', () => {
    expect(expandEscapes('a\\x1b[Ab\\u00e9\\u{1F600}\\e\\n\\r\\t\\\\\\q')).toBe(
      'a\x1b[Ab\u00e9\u{1F600}\x1b\n\r\t\\\\q',
    );
  });

  test('arguments are joined: text, then key names, in order', () => {
    expect(enc(['echo hi', 'Enter', 'C-d'])).toBe('echo hi\r\x04');
  });

  test('literal sends arguments exactly as typed, key-shaped ones included', () => {
    expect(encodeKeys(['Enter', '\\x41', 'C-Upp'], { literal: true, appCursor: false })).toBe(
      'Enter\\x41C-Upp',
    );
  });
});
