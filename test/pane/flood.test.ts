import { disposeAll, exited, screen, shPane, untilShown } from './pane-harness';

afterEach(disposeAll);

const MIB = 1024 * 1024;

describe('a pane under a flood of output', () => {
  test('parses 20 MB of /dev/urandom to the end with RSS growth under 300 MB', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const pane = shPane('head -c 20000000 /dev/urandom; printf "\\033[0m\\033c"; echo flood-done', {
      cols: 200,
      rows: 50,
    });
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    pane.on('output', () => (peak = Math.max(peak, process.memoryUsage().rss)));
    const exit = await exited(pane, 60_000);
    clearInterval(sampler);
    expect(exit).toEqual({ code: 0, signal: null });
    // A memory bound, not a time bound. (Measured here: +40–50 MB, mostly garbage from decoding.)
    expect((peak - before) / MIB).toBeLessThan(300);
    expect(screen(pane)).toContain('flood-done');
  }, 90_000);

  test('another pane stays responsive while one floods', async () => {
    const flood = shPane('exec yes', { cols: 200, rows: 50 });
    const quiet = shPane('stty -echo; while read line; do echo "got $line"; done');
    await untilShown(flood, 'y');
    for (let i = 0; i < 5; i++) {
      quiet.write(`ping${i}\r`);
      await untilShown(quiet, `got ping${i}`);
    }
    flood.kill();
    await exited(flood);
  });
});
