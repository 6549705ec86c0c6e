import type { Pane } from '../../src/server/pane';
import { ParseScheduler, paneParseScheduler } from '../../src/server/pane/parse-scheduler';
import { disposeAll, exited, shPane, until, untilShown } from './pane-harness';

afterEach(disposeAll);

const FLOODS = 6;

/** Count each pane's parsed writes (one `output` event each). */
function countWrites(panes: Pane[]): number[] {
  const counts = panes.map(() => 0);
  panes.forEach((pane, i) => pane.on('output', () => counts[i]!++));
  return counts;
}

describe('parsing shared fairly between panes', () => {
  test("an interactive pane's echo is parsed as it arrives, ahead of the floods' queued output, and every flood progresses", async () => {
    const ready = jest.spyOn(paneParseScheduler, 'ready');
    // The typist first, alone: the task its first echo makes ready is its pane's.
    const typist = shPane('exec cat');
    typist.write('_');
    await untilShown(typist, '_');
    const typistTask = ready.mock.calls[0]![0];
    const floods = Array.from({ length: FLOODS }, () =>
      shPane('exec yes "$(printf %099d 0)"', { cols: 200, rows: 50 }),
    );
    const writes = countWrites(floods);
    const floodWrites = (): number => writes.reduce((a, b) => a + b, 0);
    // The floods' parsed writes when each echo arrived, and when it was parsed.
    const arrived: number[] = [];
    const parsed: number[] = [];
    ready.mockImplementation((task) => {
      if (task === typistTask) arrived.push(floodWrites());
      ParseScheduler.prototype.ready.call(paneParseScheduler, task);
    });
    typist.on('output', () => parsed.push(floodWrites()));

    // Every flood running first: one still starting (spawned late on a loaded machine) would have
    // had nothing to parse while the keys went in, and count as starved.
    await until(typist, 'every flood to be parsed once', () => writes.every((count) => count > 0));
    const keys = 'abcdefgh';
    let atFirstKey: number[] = [];
    for (let k = 0; k < keys.length; k++) {
      // Wait until the floods hold more output than a turn parses: their output waits in line.
      await until(typist, 'the floods to wait in line', () => paneParseScheduler.backlog >= FLOODS / 2);
      if (k === 0) atFirstKey = [...writes];
      typist.write(keys[k]!);
      await untilShown(typist, '_' + keys.slice(0, k + 1));
    }
    ready.mockRestore();
    // Each echo was parsed before any more of the floods' output, though they had some waiting.
    expect(arrived).toHaveLength(keys.length);
    expect(parsed).toEqual(arrived);
    // Nobody is starved while the echoes jump the line: every flood was parsed meanwhile, in
    // round-robin shares (batch sizes vary with what each pane has queued).
    const shares = writes.map((count, i) => count - atFirstKey[i]!);
    expect(Math.min(...shares)).toBeGreaterThan(0);
    expect(Math.max(...shares)).toBeLessThanOrEqual(2 * Math.min(...shares) + 2);
  }, 60_000);

  test('floods parsed in turns lose nothing and keep their order', async () => {
    const lines = 200_000;
    const floods = Array.from({ length: FLOODS }, (_, i) =>
      shPane(`seq 1 ${lines}; echo flood-${i}-done`, { cols: 200, rows: 50, scrollback: 2000 }),
    );
    await Promise.all(floods.map((pane) => exited(pane, 60_000)));
    floods.forEach((pane, i) => {
      const rows = pane.capture({ attrs: false, scrollback: 2000 }).text.trimEnd().split('\n');
      expect(rows[rows.length - 1]).toBe(`flood-${i}-done`);
      // The last 2 000 lines of history and screen, in order and none missing.
      const numbers = rows.slice(0, -1).slice(-2000);
      expect(numbers).toEqual(Array.from({ length: 2000 }, (_, j) => String(lines - 1999 + j)));
    });
  }, 90_000);
});
