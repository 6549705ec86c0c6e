import { TabLayout, type Rect } from '../../src/server/layout';

function rect(x: number, y: number, cols: number, rows: number): Rect {
  return { x, y, cols, rows };
}

describe('a split needs room for two panes of the minimum, 2 columns by 1 row, and a separator', () => {
  test('a pane of 5 columns splits side by side into 2 + separator + 2; one of 4 columns cannot', () => {
    expect(new TabLayout(1).canSplit(1, 'row', rect(0, 0, 5, 1))).toBe(true);
    expect(new TabLayout(1).canSplit(1, 'row', rect(0, 0, 4, 1))).toBe(false);
    const layout = new TabLayout(1);
    layout.split(1, 'row', 2);
    expect([...layout.contentRects(rect(0, 0, 5, 1))]).toEqual([
      [1, rect(0, 0, 2, 1)],
      [2, rect(3, 0, 2, 1)],
    ]);
  });

  test('a stacked split needs 3 rows of content (1 + separator + 1), whatever the width', () => {
    expect(new TabLayout(1).canSplit(1, 'column', rect(0, 0, 200, 3))).toBe(true);
    expect(new TabLayout(1).canSplit(1, 'column', rect(0, 0, 200, 2))).toBe(false);
    expect(new TabLayout(1).canSplit(1, 'column', rect(0, 0, 2, 3))).toBe(true);
  });

  test("a pane's separator is not content: beside another pane it needs a column more", () => {
    // P1 is 5 columns wide with its separator, so it shows 4: too few to split side by side.
    const layout = TabLayout.fromNotation('H0.25[P1, P2]');
    const area = rect(0, 0, 20, 5);
    expect(layout.tiles(area).get(1)).toEqual(rect(0, 0, 5, 5));
    expect(layout.canSplit(1, 'row', area)).toBe(false);
    expect(layout.canSplit(2, 'row', area)).toBe(true);
  });

  test('room is judged on the layout a zoom hides, since the split ends the zoom', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    layout.toggleZoom(1);
    expect(layout.contentRects(rect(0, 0, 8, 5)).get(1)).toEqual(rect(0, 0, 8, 5));
    expect(layout.canSplit(1, 'row', rect(0, 0, 8, 5))).toBe(false);
  });

  test('a split that has room moves no other pane, down to the smallest panes', () => {
    const area = rect(0, 0, 80, 24);
    const layout = new TabLayout(1);
    let next = 2;
    for (const axis of ['row', 'column', 'row', 'column', 'row', 'column', 'row', 'column', 'row'] as const) {
      const target = layout.focused;
      if (!layout.canSplit(target, axis, area)) break;
      const before = layout.tiledContentRects(area);
      layout.split(target, axis, next++);
      const after = layout.tiledContentRects(area);
      for (const [pane, r] of before) if (pane !== target) expect(after.get(pane)).toEqual(r);
    }
    // 80 columns and 24 rows halve down to a pane of the minimum, which splits no further.
    expect(layout.panes()).toHaveLength(10);
    expect(layout.tiledContentRects(area).get(layout.focused)).toEqual(rect(78, 23, 2, 1));
    expect(
      layout.canSplit(layout.focused, 'row', area) || layout.canSplit(layout.focused, 'column', area),
    ).toBe(false);
  });
});

describe('an area smaller than the layout needs', () => {
  const NOTATION = 'H0.5[P1, V0.5[P2, H0.5[P3, P4]]]';

  test('keeps every pane its minimum and overflows right and down, as tmux keeps its layout', () => {
    const layout = TabLayout.fromNotation(NOTATION);
    const small = rect(0, 0, 3, 2);
    expect(layout.layoutArea(small)).toEqual(rect(0, 0, 8, 3));
    expect([...layout.contentRects(small)]).toEqual([
      [1, rect(0, 0, 2, 3)],
      [2, rect(3, 0, 5, 1)],
      [3, rect(3, 2, 2, 1)],
      [4, rect(6, 2, 2, 1)],
    ]);
  });

  test('a resize there still stops at the minimum', () => {
    const layout = TabLayout.fromNotation(NOTATION);
    const small = rect(0, 0, 3, 2);
    expect(layout.resize(3, 50, small)).toBe(false);
    expect(layout.resize(1, -50, small)).toBe(false);
    for (const r of layout.contentRects(small).values())
      expect([r.cols >= 2, r.rows >= 1]).toEqual([true, true]);
  });

  test('a zoomed pane gets all of it, but never less than the minimum', () => {
    const layout = TabLayout.fromNotation(NOTATION);
    layout.toggleZoom(2);
    expect([...layout.contentRects(rect(0, 0, 1, 1))]).toEqual([[2, rect(0, 0, 2, 1)]]);
    expect([...layout.contentRects(rect(0, 0, 30, 9))]).toEqual([[2, rect(0, 0, 30, 9)]]);
  });

  test('directional focus works on the overflowed tiles', () => {
    const layout = TabLayout.fromNotation(NOTATION);
    expect(layout.neighbour(3, 'right', rect(0, 0, 1, 1))).toBe(4);
    expect(layout.neighbour(3, 'up', rect(0, 0, 1, 1))).toBe(2);
  });
});
