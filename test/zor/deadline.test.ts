// The delay for a detector deadline: never early by performance.now(), at most 2 ms late.
import { timeoutFor } from '../../src/zor/deadline';

describe('timeoutFor', () => {
  it('rounds a fractional wait up and adds the millisecond the loop clock may lag', () => {
    expect(timeoutFor(104.3, 100)).toBe(6);
    expect(timeoutFor(1000.01, 500)).toBe(502);
  });

  it('adds the millisecond to a whole wait too', () => {
    expect(timeoutFor(300, 200)).toBe(101);
  });

  it('waits one millisecond for a deadline that is due or past, never a negative delay', () => {
    expect(timeoutFor(100, 100)).toBe(1);
    expect(timeoutFor(99.5, 100)).toBe(1);
    expect(timeoutFor(50, 100)).toBe(0);
  });

  it('is never more than two milliseconds past the deadline', () => {
    for (const wait of [0.001, 0.5, 0.999, 1, 7.25, 299.999]) {
      const delay = timeoutFor(1000 + wait, 1000);
      expect(delay).toBeGreaterThanOrEqual(wait);
      expect(delay - wait).toBeLessThanOrEqual(2);
    }
  });
});
