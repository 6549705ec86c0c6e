import { InputDecoder } from '../../src/client/attach/input/decoder';
import { formatKey, isKey, keyBytes, parseKeyName, sameKey, type KeyName } from '../../src/protocol/keys';

function decodedKey(raw: string): KeyName | undefined {
  const d = new InputDecoder({ now: () => 0 });
  const [token] = [...d.feed(raw), ...d.end()];
  return token.kind === 'key' ? token.key : undefined;
}

describe('key names as the config writes them', () => {
  test.each([
    ['C-a', { name: 'a', ctrl: true }],
    ['C-A', { name: 'a', ctrl: true }],
    ['M-x', { name: 'x', alt: true }],
    ['C-M-Left', { name: 'Left', ctrl: true, alt: true }],
    ['C-Space', { name: 'Space', ctrl: true }],
    ['C-@', { name: 'Space', ctrl: true }],
    ['F5', { name: 'F5' }],
    ['Enter', { name: 'Enter' }],
    ['enter', { name: 'Enter' }],
    ['Tab', { name: 'Tab' }],
    ['BTab', { name: 'Tab', shift: true }],
    ['S-Tab', { name: 'Tab', shift: true }],
    ['S-a', { name: 'A' }],
    ['Up', { name: 'Up' }],
    ['PgUp', { name: 'PageUp' }],
    ['|', { name: '|' }],
    ['?', { name: '?' }],
    ['-', { name: '-' }],
    ['C--', { name: '-', ctrl: true }],
    ['M-C', { name: 'C', alt: true }],
    ['C', { name: 'C' }],
    [' ', { name: 'Space' }],
    ['é', { name: 'é' }],
  ])('%s', (text, key) => {
    expect(parseKeyName(text)).toEqual(key);
  });

  test.each(['', 'C-', 'Nope', 'ab', 'C-Nope', 'F13'])('%j is not a key', (text) => {
    expect(parseKeyName(text)).toBeUndefined();
  });

  test('exactCase takes names only as listed, and every listed spelling', () => {
    const exact = { exactCase: true };
    expect(parseKeyName('enter', exact)).toBeUndefined();
    expect(parseKeyName('btab', exact)).toBeUndefined();
    expect(parseKeyName('C-up', exact)).toBeUndefined();
    for (const [text, name] of [
      ['Return', 'Enter'],
      ['Esc', 'Escape'],
      ['Backspace', 'BSpace'],
      ['PgUp', 'PageUp'],
      ['PPage', 'PageUp'],
      ['NPage', 'PageDown'],
      ['IC', 'Insert'],
      ['DC', 'Delete'],
      ['Del', 'Delete'],
      ['Begin', 'Begin'],
      ['F12', 'F12'],
    ]) {
      expect(parseKeyName(text, exact)).toEqual({ name });
    }
    expect(parseKeyName('BTab', exact)).toEqual({ name: 'Tab', shift: true });
  });

  test('a parsed key formats back to the config spelling', () => {
    for (const text of ['C-a', 'M-x', 'C-M-S-Up', 'F5', '|', 'Space', 'S-Tab', 'A']) {
      expect(formatKey(parseKeyName(text)!)).toBe(text);
    }
  });
});

describe('matching a config key against a decoded press', () => {
  test.each([
    ['C-a', '\x01'],
    ['C-a', '\x1b[97;5u'],
    ['C-a', '\x1b[27;5;97~'],
    ['C-Space', '\x00'],
    ['M-x', '\x1bx'],
    ['S-Enter', '\x1b[13;2u'],
    ['Up', '\x1b[A'],
    ['Up', '\x1bOA'],
    ['F5', '\x1b[15~'],
    ['BTab', '\x1b[Z'],
    ['A', '\x1b[97;2u'],
    ['|', '|'],
    ['Enter', '\r'],
  ])('%s matches %j', (text, raw) => {
    expect(sameKey(parseKeyName(text)!, decodedKey(raw)!)).toBe(true);
  });

  test('isKey matches a decoded token against a written name', () => {
    const d = new InputDecoder({ now: () => 0 });
    const [ctrlA, up, paste] = d.feed('\x1b[97;5u\x1bOA\x1b[200~C-a\x1b[201~');
    expect(isKey(ctrlA, 'C-a')).toBe(true);
    expect(isKey(ctrlA, 'a')).toBe(false);
    expect(isKey(up, 'Up')).toBe(true);
    expect(isKey(paste, 'C-a')).toBe(false);
    expect(isKey(up, 'Nope')).toBe(false);
  });

  test('Ctrl with a letter is not the letter, and Alt is not plain', () => {
    expect(sameKey(parseKeyName('C-a')!, decodedKey('a')!)).toBe(false);
    expect(sameKey(parseKeyName('M-x')!, decodedKey('x')!)).toBe(false);
    expect(sameKey(parseKeyName('a')!, decodedKey('A')!)).toBe(false);
  });
});

describe('the bytes a legacy terminal sends for a key', () => {
  test.each([
    ['C-a', '\x01'],
    ['C-b', '\x02'],
    ['C-Space', '\x00'],
    ['C-\\', '\x1c'],
    ['M-x', '\x1bx'],
    ['C-M-a', '\x1b\x01'],
    ['`', '`'],
    ['Enter', '\r'],
    ['Up', '\x1b[A'],
    ['C-Up', '\x1b[1;5A'],
    ['F1', '\x1bOP'],
    ['F5', '\x1b[15~'],
    ['S-F5', '\x1b[15;2~'],
    ['BTab', '\x1b[Z'],
  ])('%s is %j', (text, bytes) => {
    expect(keyBytes(parseKeyName(text)!)).toBe(bytes);
  });

  test('unmodified cursor keys take the SS3 form under DECCKM; modified ones keep CSI 1;m', () => {
    const app = { appCursor: true };
    expect(
      ['Up', 'Down', 'Right', 'Left', 'Home', 'End'].map((k) => keyBytes(parseKeyName(k)!, app)),
    ).toEqual(['\x1bOA', '\x1bOB', '\x1bOC', '\x1bOD', '\x1bOH', '\x1bOF']);
    expect(keyBytes(parseKeyName('M-Up')!, app)).toBe('\x1b[1;3A');
    expect(keyBytes(parseKeyName('PageUp')!, app)).toBe('\x1b[5~');
  });

  test('a key a legacy terminal cannot send has no bytes', () => {
    expect(keyBytes(parseKeyName('S-Enter')!)).toBeUndefined();
    expect(keyBytes(parseKeyName('C-1')!)).toBeUndefined();
  });
});
