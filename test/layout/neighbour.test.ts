import { TabLayout, type Rect } from '../../src/server/layout';

const AREA: Rect = { x: 0, y: 0, cols: 100, rows: 40 };

describe('directional focus ranks candidates the way herdr does', () => {
  test('the nearest candidate wins even when a farther one overlaps more', () => {
    // P1 spans all 40 rows. Right of it: P2 (rows 0–29) and P3 (rows 30–39) at gap 0, and P4,
    // which spans all 40 rows but lies beyond them.
    const layout = TabLayout.fromNotation('H0.25[P1, H0.5[V0.75[P2, P3], P4]]');
    const tiles = layout.tiles(AREA);
    expect(tiles.get(2)).toEqual({ x: 25, y: 0, cols: 38, rows: 30 });
    expect(tiles.get(4)).toEqual({ x: 63, y: 0, cols: 37, rows: 40 });
    expect(layout.neighbour(1, 'right', AREA)).toBe(2);
  });

  test('at equal gaps the candidate overlapping most wins even when another is better centred', () => {
    // P1 is rows 0–19 on the left. Right of it: P3 rows 0–3 (centre 2, overlap 4) and
    // P4 rows 4–39 (centre 22, overlap 16). P1's centre is 10, so P3 is closer to centred.
    const layout = TabLayout.fromNotation('H0.5[V0.5[P1, P2], V0.1[P3, P4]]');
    const tiles = layout.tiles(AREA);
    expect(tiles.get(1)).toEqual({ x: 0, y: 0, cols: 50, rows: 20 });
    expect(tiles.get(3)).toEqual({ x: 50, y: 0, cols: 50, rows: 4 });
    expect(layout.neighbour(1, 'right', AREA)).toBe(4);
  });

  test('at equal gaps and overlaps the candidate best centred on the focused pane wins over tree order', () => {
    // P5 is rows 0–29 on the right. Left of it: P1 rows 0–9, P2 rows 10–19, P3 rows 20–39,
    // each overlapping P5 by 10 rows; P2's centre (15) is P5's centre.
    const layout = TabLayout.fromNotation('H0.5[V0.25[P1, V0.3333[P2, P3]], V0.75[P5, P6]]');
    const tiles = layout.tiles(AREA);
    expect(tiles.get(1)).toEqual({ x: 0, y: 0, cols: 50, rows: 10 });
    expect(tiles.get(2)).toEqual({ x: 0, y: 10, cols: 50, rows: 10 });
    expect(tiles.get(5)).toEqual({ x: 50, y: 0, cols: 50, rows: 30 });
    expect(layout.neighbour(5, 'left', AREA)).toBe(2);
  });

  test('when gap, overlap and centring all tie, the pane first in tree order wins', () => {
    // P5 is rows 0–19; P1 (rows 0–9) and P2 (rows 10–19) overlap it equally, 5 rows off centre each.
    const layout = TabLayout.fromNotation('H0.5[V0.25[P1, V0.3333[P2, P3]], V0.5[P5, P6]]');
    expect(layout.neighbour(5, 'left', AREA)).toBe(1);
    // Mirrored, the same tie goes to the pane first in tree order on the other side too.
    const mirrored = TabLayout.fromNotation('H0.5[V0.5[P5, P6], V0.25[P1, V0.3333[P2, P3]]]');
    expect(mirrored.neighbour(5, 'right', AREA)).toBe(1);
  });

  test('a pane that only touches the focused pane at a corner is not a candidate', () => {
    // A 2×2 grid: P1 top-left, P2 bottom-left, P3 top-right, P4 bottom-right. From P1, down-right
    // P4 touches only at a corner; down reaches P2, never P4.
    const layout = TabLayout.fromNotation('H0.5[V0.5[P1, P2], V0.5[P3, P4]]');
    expect(layout.neighbour(1, 'down', AREA)).toBe(2);
    expect(layout.neighbour(2, 'right', AREA)).toBe(4);
    expect(layout.neighbour(4, 'up', AREA)).toBe(3);
    expect(layout.neighbour(3, 'left', AREA)).toBe(1);
  });

  test('focus does not wrap around at the edges of the area', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    expect(layout.neighbour(1, 'left', AREA)).toBeUndefined();
    expect(layout.neighbour(2, 'right', AREA)).toBeUndefined();
    expect(layout.neighbour(1, 'up', AREA)).toBeUndefined();
    expect(layout.neighbour(2, 'down', AREA)).toBeUndefined();
  });

  test('a lone pane has no neighbour in any direction', () => {
    const layout = new TabLayout(7);
    for (const dir of ['left', 'right', 'up', 'down'] as const) {
      expect(layout.neighbour(7, dir, AREA)).toBeUndefined();
    }
  });

  test('directional focus is judged on the unzoomed tiles while a pane is zoomed', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    layout.toggleZoom(1);
    expect(layout.neighbour(1, 'right', AREA)).toBe(2);
  });

  test('asking for the neighbour of a pane not in the tab is an error', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    expect(() => layout.neighbour(9, 'left', AREA)).toThrow(/pane 9 is not in this tab/);
  });
});
