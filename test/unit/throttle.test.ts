import { OutputThrottle } from '../../src/server/throttle';

describe('the pane.output throttle', () => {
  let now = 0;
  let fired: Array<[number, number]> = [];
  let throttle: OutputThrottle;
  beforeEach(() => {
    jest.useFakeTimers();
    now = 1000;
    fired = [];
    throttle = new OutputThrottle(
      250,
      (_ws, id) => fired.push([id, now]),
      () => now,
    );
  });
  afterEach(() => jest.useRealTimers());

  const advance = (ms: number): void => {
    now += ms;
    jest.advanceTimersByTime(ms);
  };

  test('the first output after quiet fires at once', () => {
    throttle.poke('w', 1);
    expect(fired).toEqual([[1, 1000]]);
  });

  test('output within the interval folds into one trailing nudge at its end', () => {
    throttle.poke('w', 1);
    for (let i = 0; i < 10; i++) {
      advance(10);
      throttle.poke('w', 1);
    }
    expect(fired).toHaveLength(1);
    advance(150);
    expect(fired).toEqual([
      [1, 1000],
      [1, 1250],
    ]);
  });

  test('each pane has its own budget', () => {
    throttle.poke('w', 1);
    throttle.poke('w', 2);
    throttle.poke('v', 1);
    expect(fired).toHaveLength(3);
  });

  test('a forgotten pane gets no trailing nudge', () => {
    throttle.poke('w', 1);
    advance(10);
    throttle.poke('w', 1);
    throttle.forget('w', 1);
    advance(500);
    expect(fired).toHaveLength(1);
  });
});
