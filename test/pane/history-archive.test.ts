import { HistoryArchive } from '../../src/server/pane/history-archive';

function contents(archive: HistoryArchive): string[] {
  return Array.from({ length: archive.length }, (_, i) => archive.at(i));
}

describe('the history archive', () => {
  test('gives rows back oldest first, as they were pushed', () => {
    const archive = new HistoryArchive(10);
    for (const row of ['one', '', 'three \x1b[0;31mred\x1b[0m', '中文😀']) archive.push(row);
    expect(archive.length).toBe(4);
    expect(contents(archive)).toEqual(['one', '', 'three \x1b[0;31mred\x1b[0m', '中文😀']);
  });

  test('takes a plain row as the leading bytes of a scratch buffer, among rows given as text', () => {
    const archive = new HistoryArchive(10);
    const scratch = Buffer.alloc(100, 'z');
    const ascii = (text: string): void => {
      scratch.write(text);
      archive.pushAscii(scratch, text.length);
    };
    ascii('plain one');
    archive.push('中文 text');
    ascii('');
    ascii('two');
    expect(contents(archive)).toEqual(['plain one', '中文 text', '', 'two']);
    // Across chunks and past the capacity, as rows given as text are.
    for (let i = 0; i < 3000; i++) ascii(`${i}`.padEnd(60, '.'));
    expect(contents(archive)).toEqual(Array.from({ length: 10 }, (_, i) => `${2990 + i}`.padEnd(60, '.')));
  });

  test('drops the oldest rows once it holds its capacity', () => {
    const archive = new HistoryArchive(1000);
    for (let i = 1; i <= 2500; i++) archive.push(`row ${i}`);
    expect(archive.length).toBe(1000);
    expect(archive.at(0)).toBe('row 1501');
    expect(archive.at(999)).toBe('row 2500');
    expect(contents(archive)).toEqual(Array.from({ length: 1000 }, (_, i) => `row ${1501 + i}`));
  });

  test('keeps rows whole across its storage buffers, including rows longer than one', () => {
    const archive = new HistoryArchive(100);
    const rows = [
      ...Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(3000, 'x')),
      'y'.repeat(100_000),
      ...Array.from({ length: 40 }, (_, i) => `é${i}`.padEnd(2000, 'é')),
    ];
    for (const row of rows) archive.push(row);
    expect(contents(archive)).toEqual(rows);
    for (let i = 0; i < 50; i++) archive.push(`late ${i}`);
    expect(contents(archive)).toEqual([
      ...rows.slice(31),
      ...Array.from({ length: 50 }, (_, i) => `late ${i}`),
    ]);
  });

  test('is empty after clear and fills again', () => {
    const archive = new HistoryArchive(5);
    for (let i = 0; i < 8; i++) archive.push(`old ${i}`);
    archive.clear();
    expect(archive.length).toBe(0);
    archive.push('new');
    expect(contents(archive)).toEqual(['new']);
  });

  test('with no capacity keeps nothing', () => {
    const archive = new HistoryArchive(0);
    archive.push('row');
    expect(archive.length).toBe(0);
  });

  test('refuses an index outside its rows', () => {
    const archive = new HistoryArchive(5);
    archive.push('row');
    expect(() => archive.at(1)).toThrow(RangeError);
    expect(() => archive.at(-1)).toThrow(RangeError);
  });
});
