import { encodeKeys, expandEscapes, keyBytes } from '../../src/server/keys';

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
    ['Delete', '\x1b[3~'],
    ['enter', undefined],
    ['hello', undefined],
  ])('key name %j is %j', (name, bytes) => {
    expect(keyBytes(name, false)).toBe(bytes);
  });

  test('cursor keys follow application cursor mode', () => {
    expect(enc(['Up', 'Down', 'Right', 'Left', 'Home', 'End'])).toBe('\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F');
    expect(enc(['Up', 'Left'], true)).toBe('\x1bOA\x1bOD');
  });

  test('text expands \\x, \\u, \\e, \\n, \\r, \\t and keeps unknown escapes as typed', () => {
    expect(expandEscapes('a\\x1b[Ab\\u00e9\\u{1F600}\\e\\n\\r\\t\\\\\\q')).toBe(
      'a\x1b[Ab\u00e9\u{1F600}\x1b\n\r\t\\\\q',
    );
  });

  test('arguments are joined: text, then key names, in order', () => {
    expect(enc(['echo hi', 'Enter', 'C-d'])).toBe('echo hi\r\x04');
  });

  test('literal sends arguments exactly as typed', () => {
    expect(encodeKeys(['Enter', '\\x41'], { literal: true, appCursor: false })).toBe('Enter\\x41');
  });
});
