import { Predictor, predictModeFrom, type PaneScreen } from '../../../src/client/attach/predict';

/** A pane screen of one row of text with a cursor. */
function screen(text: string, cursorX: number, cols = 40): PaneScreen {
  return { charAt: (x, y) => (y === 0 ? (text[x] ?? ' ') : ' '), cursor: { x: cursorX, y: 0 }, cols };
}

function slowPredictor(clock: { t: number }): Predictor {
  const p = new Predictor('auto', () => clock.t);
  for (let i = 0; i < 20; i++) p.roundTrip(80);
  return p;
}

describe('predictive local echo', () => {
  test('auto mode predicts only once the round trip is slow, and stops when it is fast again', () => {
    const p = new Predictor('auto');
    p.typed(1, 'a', screen('$ ', 2));
    expect(p.overlay(1)).toBeUndefined();
    for (let i = 0; i < 20; i++) p.roundTrip(80);
    expect(p.active).toBe(true);
    for (let i = 0; i < 40; i++) p.roundTrip(2);
    expect(p.active).toBe(false);
  });

  test('typed characters show at the cursor at once, and the cursor moves past them', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, 'ls', screen('$ ', 2));
    expect(p.overlay(1)).toEqual({
      cells: [
        { x: 2, y: 0, ch: 'l' },
        { x: 3, y: 0, ch: 's' },
      ],
      cursor: { x: 4, y: 0 },
    });
  });

  test('what the server confirms stops being a prediction', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, 'ls', screen('$ ', 2));
    p.update(1, screen('$ l', 3));
    expect(p.overlay(1)?.cells).toEqual([{ x: 3, y: 0, ch: 's' }]);
    p.update(1, screen('$ ls', 4));
    expect(p.overlay(1)).toBeUndefined();
  });

  test('a screen that disagrees drops every guess and predicting waits for the server to catch up', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, 'pw', screen('Password: ', 10));
    // No echo: the cursor stays, and once the grace passes the guesses go.
    clock.t = 1000;
    p.update(1, screen('Password: ', 10));
    expect(p.overlay(1)).toBeUndefined();
    // Suspended: nothing is predicted until the server has confirmed all there was.
    p.typed(1, 'x', screen('Password: ', 10));
    expect(p.overlay(1)).toBeUndefined();
  });

  test('the deadline is when the oldest guess runs out of grace', () => {
    const clock = { t: 100 };
    const p = slowPredictor(clock);
    expect(p.deadline()).toBeUndefined();
    p.typed(1, 'ab', screen('$ ', 2));
    const deadline = p.deadline()!;
    expect(deadline).toBeGreaterThan(100);
    clock.t = deadline - 1;
    p.update(1, screen('$ ', 2));
    expect(p.overlay(1)).toBeDefined();
    clock.t = deadline + 1;
    p.update(1, screen('$ ', 2));
    expect(p.overlay(1)).toBeUndefined();
    expect(p.deadline()).toBeUndefined();
  });

  test('the echo landing elsewhere is a wrong guess at once', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, 'a', screen('$ ', 2));
    p.update(1, screen('$ b', 3));
    expect(p.overlay(1)).toBeUndefined();
  });

  test('control keys and escape sequences are never predicted', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, '\r', screen('$ ', 2));
    p.typed(1, '\x1b[A', screen('$ ', 2));
    p.typed(1, 'a', screen('$ ', 2));
    expect(p.overlay(1)).toBeUndefined();
  });

  test('wide and combining text is left to the server', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, '你', screen('$ ', 2));
    expect(p.overlay(1)).toBeUndefined();
  });

  test('never predicts past the right edge', () => {
    const clock = { t: 0 };
    const p = slowPredictor(clock);
    p.typed(1, 'abc', screen('', 8, 10));
    expect(p.overlay(1)?.cells.map((c) => c.x)).toEqual([8, 9]);
  });

  test('FUX_PREDICT picks the mode, auto by default', () => {
    expect(predictModeFrom({})).toBe('auto');
    expect(predictModeFrom({ FUX_PREDICT: 'always' })).toBe('always');
    expect(predictModeFrom({ FUX_PREDICT: 'never' })).toBe('never');
    expect(predictModeFrom({ FUX_PREDICT: 'bogus' })).toBe('auto');
  });
});
