import { TabLayout, type Direction, type PaneId, type Rect } from '../../src/server/layout';

// The core issue's acceptance layout: P1 on the left; on the right P2 above P3 | P4.
const NOTATION = 'H0.3[P1, V0.6[P2, H0.4[P3, P4]]]';
const AREA: Rect = { x: 0, y: 0, cols: 100, rows: 40 };

function rect(x: number, y: number, cols: number, rows: number): Rect {
  return { x, y, cols, rows };
}

describe('the acceptance layout H0.3[P1, V0.6[P2, H0.4[P3, P4]]] at 100×40', () => {
  const layout = TabLayout.fromNotation(NOTATION);

  test('tiles the area into exactly the rects the issue lists', () => {
    expect([...layout.tiles(AREA)]).toEqual([
      [1, rect(0, 0, 30, 40)],
      [2, rect(30, 0, 70, 24)],
      [3, rect(30, 24, 28, 16)],
      [4, rect(58, 24, 42, 16)],
    ]);
  });

  test('gives each pty its tile less one cell for each separator to its right or below it', () => {
    // Separators: column 29 (P1 | the rest), row 23 (P2 / P3 and P4), column 57 (P3 | P4). P2 and
    // P4 reach the area's right edge, so they keep every column.
    expect([...layout.contentRects(AREA)]).toEqual([
      [1, rect(0, 0, 29, 40)],
      [2, rect(30, 0, 70, 23)],
      [3, rect(30, 24, 27, 16)],
      [4, rect(58, 24, 42, 16)],
    ]);
  });

  const moves: [PaneId, Direction, PaneId | undefined][] = [
    [1, 'left', undefined],
    [1, 'right', 2],
    [1, 'up', undefined],
    [1, 'down', undefined],
    [2, 'left', 1],
    [2, 'right', undefined],
    [2, 'up', undefined],
    [2, 'down', 4],
    [3, 'left', 1],
    [3, 'right', 4],
    [3, 'up', 2],
    [3, 'down', undefined],
    [4, 'left', 3],
    [4, 'right', undefined],
    [4, 'up', 2],
    [4, 'down', undefined],
  ];

  test.each(moves)('moving focus from P%d %s reaches %p', (from, dir, expected) => {
    expect(layout.neighbour(from, dir, AREA)).toBe(expected);
  });
});
