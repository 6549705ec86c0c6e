import { TabLayout, type Rect } from '../../src/server/layout';

function rect(x: number, y: number, cols: number, rows: number): Rect {
  return { x, y, cols, rows };
}

function cellsCovered(tiles: Map<number, Rect>): number {
  return [...tiles.values()].reduce((sum, t) => sum + t.cols * t.rows, 0);
}

describe('how a split divides its cells', () => {
  test('the first child gets the rounded share, halves rounding up, and the second the rest', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    const tiles = layout.tiles(rect(0, 0, 5, 3));
    expect(tiles.get(1)).toEqual(rect(0, 0, 3, 3));
    expect(tiles.get(2)).toEqual(rect(3, 0, 2, 3));
  });

  test('a tiny share still leaves the first pane its two columns of content beside its separator', () => {
    const layout = TabLayout.fromNotation('H0.001[P1, P2]');
    expect(layout.tiles(rect(0, 0, 100, 10)).get(1)).toEqual(rect(0, 0, 3, 10));
    expect(layout.contentRects(rect(0, 0, 100, 10)).get(1)).toEqual(rect(0, 0, 2, 10));
  });

  test('a huge share still leaves the last pane, which has no separator, two columns', () => {
    const layout = TabLayout.fromNotation('H0.999[P1, P2]');
    expect(layout.tiles(rect(0, 0, 100, 10)).get(2)).toEqual(rect(98, 0, 2, 10));
  });

  test('an outer split leaves room for every pane of a nested split on the same axis', () => {
    const layout = TabLayout.fromNotation('H0.01[H0.5[P1, P2], P3]');
    expect([...layout.contentRects(rect(0, 0, 100, 10))]).toEqual([
      [1, rect(0, 0, 2, 10)],
      [2, rect(3, 0, 2, 10)],
      [3, rect(6, 0, 94, 10)],
    ]);
  });

  test('separators are judged against the area’s own edges when it does not start at the origin', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, P3]]');
    const area = rect(5, 2, 10, 4);
    expect([...layout.contentRects(area)]).toEqual([
      [1, rect(5, 2, 4, 4)],
      [2, rect(10, 2, 5, 1)],
      [3, rect(10, 4, 5, 2)],
    ]);
  });

  test('an area too small for every pane is overflowed: each keeps its minimum, none is crushed', () => {
    const layout = TabLayout.fromNotation('H0.3[P1, V0.6[P2, H0.4[P3, P4]]]');
    // Two columns each for P1, P3 and P4 and their two separators: 8; P2, its separator and P3: 3 rows.
    for (const area of [
      rect(0, 0, 1, 1),
      rect(0, 0, 2, 1),
      rect(0, 0, 3, 2),
      rect(0, 0, 0, 0),
      rect(4, 2, 9, 1),
    ]) {
      const whole = layout.layoutArea(area);
      expect(whole).toEqual(rect(area.x, area.y, Math.max(8, area.cols), Math.max(3, area.rows)));
      expect(cellsCovered(layout.tiles(area))).toBe(whole.cols * whole.rows);
      for (const r of layout.contentRects(area).values())
        expect(Math.min(r.cols, r.rows)).toBeGreaterThanOrEqual(1);
    }
  });

  test('an area the layout fits in is the layout area itself', () => {
    const layout = TabLayout.fromNotation('H0.3[P1, V0.6[P2, H0.4[P3, P4]]]');
    expect(layout.layoutArea(rect(0, 0, 8, 3))).toEqual(rect(0, 0, 8, 3));
    expect(layout.layoutArea(rect(2, 1, 80, 24))).toEqual(rect(2, 1, 80, 24));
  });

  test('an area of fractional or negative size is an error', () => {
    const layout = new TabLayout(1);
    expect(() => layout.tiles(rect(0, 0, -1, 5))).toThrow(/whole cells/);
    expect(() => layout.contentRects(rect(0, 0, 10.5, 5))).toThrow(/whole cells/);
  });
});
