import { separators } from '../../../src/client/attach/render/borders';

type Rect = { x: number; y: number; cols: number; rows: number };

/** The separators of an area drawn as text, `.` where a pane is. */
function draw(cols: number, rows: number, panes: Rect[]): string[] {
  const grid = Array.from({ length: rows }, () => Array.from({ length: cols }, () => '.'));
  for (const c of separators(cols, rows, panes)) grid[c.y]![c.x] = c.ch;
  return grid.map((r) => r.join(''));
}

describe('separators', () => {
  test('two panes side by side are split by a vertical line', () => {
    const left = { x: 0, y: 0, cols: 3, rows: 3 };
    const right = { x: 4, y: 0, cols: 3, rows: 3 };
    expect(draw(7, 3, [left, right])).toEqual(['...│...', '...│...', '...│...']);
  });

  test('a split on one side of a vertical line meets it with a tee', () => {
    const left = { x: 0, y: 0, cols: 3, rows: 5 };
    const top = { x: 4, y: 0, cols: 3, rows: 2 };
    const bottom = { x: 4, y: 3, cols: 3, rows: 2 };
    expect(draw(7, 5, [left, top, bottom])).toEqual(['...│...', '...│...', '...├───', '...│...', '...│...']);
  });

  test('four panes meet in a cross; a horizontal line over a vertical split meets it with ┬ or ┴', () => {
    const panes = [
      { x: 0, y: 0, cols: 2, rows: 2 },
      { x: 3, y: 0, cols: 2, rows: 2 },
      { x: 0, y: 3, cols: 2, rows: 2 },
      { x: 3, y: 3, cols: 2, rows: 2 },
    ];
    expect(draw(5, 5, panes)).toEqual(['..│..', '..│..', '──┼──', '..│..', '..│..']);
    const top = { x: 0, y: 0, cols: 5, rows: 2 };
    const bl = { x: 0, y: 3, cols: 2, rows: 2 };
    const br = { x: 3, y: 3, cols: 2, rows: 2 };
    expect(draw(5, 5, [top, bl, br])).toEqual(['.....', '.....', '──┬──', '..│..', '..│..']);
    const tl = { x: 0, y: 0, cols: 2, rows: 2 };
    const tr = { x: 3, y: 0, cols: 2, rows: 2 };
    const bottom = { x: 0, y: 3, cols: 5, rows: 2 };
    expect(draw(5, 5, [tl, tr, bottom])).toEqual(['..│..', '..│..', '──┴──', '.....', '.....']);
  });

  test('separator cells next to the focused pane are active, the rest are not', () => {
    const left = { x: 0, y: 0, cols: 3, rows: 5 };
    const top = { x: 4, y: 0, cols: 3, rows: 2 };
    const bottom = { x: 4, y: 3, cols: 3, rows: 2 };
    const cells = separators(7, 5, [left, top, bottom], bottom);
    const active = cells.filter((c) => c.active).map((c) => `${c.x},${c.y}`);
    expect(active).toEqual(['3,2', '4,2', '5,2', '6,2', '3,3', '3,4']);
    expect(separators(7, 5, [left, top, bottom], left).every((c) => c.x !== 3 || c.active)).toBe(true);
  });

  test('no panes, no separators (an empty area stays blank)', () => {
    expect(separators(4, 2, [])).toEqual([]);
  });
});
