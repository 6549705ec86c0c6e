import { Terminal } from '@xterm/headless';
import { NormalScrollRegion } from '../../src/server/pane/scroll-region';

const terminals: Terminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.dispose()));

function tracked(rows = 24): { terminal: Terminal; region: NormalScrollRegion } {
  const terminal = new Terminal({ cols: 80, rows, allowProposedApi: true, logLevel: 'off' });
  terminals.push(terminal);
  return { terminal, region: new NormalScrollRegion(terminal) };
}

function written(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

describe('following the normal screen scroll region', () => {
  test('starts as the whole screen', () => {
    expect(tracked().region.isWholeScreen).toBe(true);
  });

  test.each([
    ['a region above the last row', '\x1b[1;23r', false],
    ['a region below the first row', '\x1b[2;24r', false],
    ['the whole screen by its rows', '\x1b[1;24r', true],
    ['the whole screen by default', '\x1b[r', true],
    ['a bottom past the screen, which means the last row', '\x1b[1;99r', true],
  ])('after DECSTBM setting %s', async (_, sequence, whole) => {
    const { terminal, region } = tracked();
    await written(terminal, '\x1b[3;10r' + sequence);
    expect(region.isWholeScreen).toBe(whole);
  });

  test('ignores a DECSTBM whose top is not above its bottom, as xterm does', async () => {
    const { terminal, region } = tracked();
    await written(terminal, '\x1b[1;20r\x1b[10;5r');
    expect(region.isWholeScreen).toBe(false);
    await written(terminal, '\x1b[r\x1b[7;7r');
    expect(region.isWholeScreen).toBe(true);
  });

  test.each([
    ['a soft reset (DECSTR)', '\x1b[!p'],
    ['a full reset (RIS)', '\x1bc'],
  ])('returns to the whole screen after %s', async (_, sequence) => {
    const { terminal, region } = tracked();
    await written(terminal, '\x1b[1;20r');
    await written(terminal, sequence);
    expect(region.isWholeScreen).toBe(true);
  });

  test('returns to the whole screen after a resize', async () => {
    const { terminal, region } = tracked();
    await written(terminal, '\x1b[1;20r');
    terminal.resize(80, 30);
    region.resized();
    expect(region.isWholeScreen).toBe(true);
  });

  test('is not changed by a region set on the alternate screen, which has a region of its own', async () => {
    const { terminal, region } = tracked();
    await written(terminal, '\x1b[?1049h\x1b[1;20r');
    expect(region.isWholeScreen).toBe(true);
    await written(terminal, '\x1b[?1049l\x1b[1;20r\x1b[?1049h\x1b[r\x1b[?1049l');
    expect(region.isWholeScreen).toBe(false);
  });
});
