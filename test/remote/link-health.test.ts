import { LinkHealth, redialDelayMs } from '../../src/client/remote/link-health';

const settings = { stallAfterMs: 2000, redialAfterMs: 10_000 };

describe('link health from ping echoes (injected clock)', () => {
  test('a link that keeps answering never changes', () => {
    const h = new LinkHealth(settings, 0);
    for (let t = 500; t <= 20_000; t += 500) {
      expect(h.heard(t)).toBeUndefined();
      expect(h.check(t)).toBeUndefined();
    }
    expect(h.stalled).toBe(false);
  });

  test('silence past the stall time is one stall, and the next echo is one resume', () => {
    const h = new LinkHealth(settings, 0);
    expect(h.check(1999)).toBeUndefined();
    expect(h.check(2000)).toEqual({ kind: 'stalled', silentMs: 2000 });
    expect(h.check(3000)).toBeUndefined(); // said once
    expect(h.stalled).toBe(true);
    expect(h.heard(4500)).toEqual({ kind: 'resumed', silentMs: 4500 });
    expect(h.stalled).toBe(false);
    expect(h.heard(5000)).toBeUndefined();
  });

  test('silence past the redial time gives the connection up, once, and no echo brings it back', () => {
    const h = new LinkHealth(settings, 1000);
    expect(h.check(3000)?.kind).toBe('stalled');
    expect(h.check(11_000)).toEqual({ kind: 'abandon', silentMs: 10_000 });
    expect(h.check(12_000)).toBeUndefined();
    expect(h.heard(12_500)).toBeUndefined();
    expect(h.stalled).toBe(true);
  });

  test('a timer that fires late still gives up a connection silent past the redial time', () => {
    const h = new LinkHealth(settings, 0);
    expect(h.check(15_000)).toEqual({ kind: 'abandon', silentMs: 15_000 });
  });

  test('the peer was last heard at its latest echo, even if echoes arrive out of order', () => {
    const h = new LinkHealth(settings, 0);
    h.heard(800);
    h.heard(600);
    expect(h.heardAt).toBe(800);
  });

  test('redials start quick and settle at one every 2 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(redialDelayMs)).toEqual([100, 200, 400, 800, 1600, 2000, 2000]);
  });
});
