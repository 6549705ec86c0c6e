import { soak } from '../../bench/lib/soak';
import { FuxHome } from '../helpers/home';

let home: FuxHome;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
});
afterEach(() => home.close());

/**
 * The short form of the soak that `npm run bench -- soak` runs for ten minutes with forty panes.
 * RSS is held against the server's own reading a few seconds in (all panes running, the first
 * screens drawn): a leak per event or per frame shows as growth over the rest of the run. The
 * bound is looser than the long run's 1.1×, because a short run's garbage collector has had
 * fewer chances to settle.
 */
test('ten busy panes with a subscriber and an attached client: no event lost, RSS growth bounded', async () => {
  const client = await home.client();
  const result = await soak(client, home.serverPid()!, {
    panes: 10,
    durationMs: 20_000,
    baselineAfterMs: 6_000,
    sampleEveryMs: 1_000,
    cols: 200,
    rows: 50,
    cwd: home.dir,
  });
  process.stdout.write(
    `soak: ${result.titlesSeen} titles, ${result.events} events, ${result.frames} frames; RSS ` +
      `${(result.baselineRss / 2 ** 20).toFixed(1)} → ${(result.endRss / 2 ** 20).toFixed(1)} MiB\n`,
  );
  expect(result.lost).toEqual([]);
  // Each pane numbers a title a second: all of them set some, and the subscriber saw each one.
  expect(result.titlesSet).toBeGreaterThanOrEqual(10 * 5);
  expect(result.titlesSeen).toBeGreaterThanOrEqual(result.titlesSet);
  expect(result.frames).toBeGreaterThan(0);
  expect(result.baselineRss).toBeGreaterThan(0);
  expect(result.endRss).toBeLessThanOrEqual(result.baselineRss * 1.25);
}, 90_000);
