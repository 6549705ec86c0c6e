import type { Pane } from '../../src/server/pane';
import { disposeAll, exited, shPane, until, untilShown } from './pane-harness';

afterEach(disposeAll);

const MIB = 1024 * 1024;
const COLS = 200;
const ROWS = 50;
const HISTORY = 10_000;
/** 10 000 lines of history and a screen, each line 190 characters (as in benchmark B5). */
const fill = `seq -f '%0190.0f' 1 ${HISTORY + ROWS}; echo filled; exec cat`;

function spawn(script: string): Pane {
  return shPane(script, { cols: COLS, rows: ROWS, scrollback: HISTORY });
}

async function filled(pane: Pane): Promise<void> {
  await untilShown(pane, 'filled');
  await until(
    pane,
    'the history compacted',
    () => pane.terminal.buffer.normal.baseY <= 750 && pane.historyLines() === HISTORY,
    20_000,
  );
}

function settledRss(): number {
  global.gc?.();
  return process.memoryUsage().rss;
}

describe('the memory a pane keeps', () => {
  test('is under 8 MB of RSS for 10 000 lines of 190-character history at 200×50, over an idle pane', async () => {
    // The first flood in a process grows V8's heap and the allocator's arenas, whatever is kept
    // afterwards. A pane filled first (and kept, so that what it keeps is not freed for the next
    // one to reuse) leaves that growth out of the figure.
    const first = spawn(fill);
    await filled(first);
    const idle = spawn('exec cat');
    await untilShown(idle, '');
    const before = settledRss();

    const pane = spawn(fill);
    await filled(pane);
    const delta = (settledRss() - before) / MIB;
    console.log(`a 200×50 pane with 10 000 lines of 190-character history: +${delta.toFixed(1)} MB RSS`);
    expect(delta).toBeLessThan(8);
    pane.kill();
    await exited(pane);
  }, 60_000);
});
