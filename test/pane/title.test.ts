import { MAX_TITLE_CHARS, sanitizeTitle } from '../../src/server/pane/title';

describe('a pane title', () => {
  test('loses C0, DEL and C1 control characters and keeps everything else', () => {
    expect(sanitizeTitle('a\x00b\x07c\x1b[31md\x7fe\x9bf\u00a0g ✓')).toBe('abc[31mdef\u00a0g ✓');
  });

  test('is cut to 256 characters counted as code points, never splitting an emoji', () => {
    expect(MAX_TITLE_CHARS).toBe(256);
    expect(sanitizeTitle('x'.repeat(300))).toBe('x'.repeat(256));
    const emoji = sanitizeTitle('😀'.repeat(300));
    expect(Array.from(emoji)).toHaveLength(256);
    expect(emoji).toBe('😀'.repeat(256));
  });

  test('counts only the characters kept towards the cap', () => {
    expect(sanitizeTitle('\x01'.repeat(300) + 'kept')).toBe('kept');
  });
});
