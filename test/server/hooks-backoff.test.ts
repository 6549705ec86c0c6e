import { Backoff } from '../../src/server/backoff';

const config = { firstMs: 1000, maxMs: 8000, healthyAfterMs: 10_000 };

describe('the restart backoff of a hook', () => {
  test('doubles with every quick exit, up to the cap', () => {
    const backoff = new Backoff(config);
    expect([0, 1, 2, 3, 4, 5].map(() => backoff.next(50))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });

  test('starts again from the first delay after a run long enough to count as healthy', () => {
    const backoff = new Backoff(config);
    backoff.next(50);
    backoff.next(50);
    expect(backoff.next(10_000)).toBe(1000);
    expect(backoff.next(50)).toBe(2000);
  });
});
