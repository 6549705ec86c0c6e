import { TabLayout, type Rect } from '../../src/server/layout';

const AREA: Rect = { x: 0, y: 0, cols: 100, rows: 40 };
const ACCEPTANCE = 'H0.3[P1, V0.6[P2, H0.4[P3, P4]]]';

function rect(x: number, y: number, cols: number, rows: number): Rect {
  return { x, y, cols, rows };
}

describe('splitting', () => {
  test('a row split puts the new pane to the right, halves the cells and focuses the new pane', () => {
    const layout = new TabLayout(1);
    layout.split(1, 'row', 2);
    expect(layout.panes()).toEqual([1, 2]);
    expect(layout.focused).toBe(2);
    expect([...layout.tiles(AREA)]).toEqual([
      [1, rect(0, 0, 50, 40)],
      [2, rect(50, 0, 50, 40)],
    ]);
    expect(layout.toJSON()).toEqual({ axis: 'row', ratio: 0.5, a: { pane: 1 }, b: { pane: 2 } });
  });

  test('a column split puts the new pane below and leaves the target the given share', () => {
    const layout = new TabLayout(1);
    layout.split(1, 'column', 2, 0.25);
    expect([...layout.tiles(AREA)]).toEqual([
      [1, rect(0, 0, 100, 10)],
      [2, rect(0, 10, 100, 30)],
    ]);
  });

  test('splitting a pane inside the tree replaces just that pane and keeps tree order', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    layout.split(1, 'column', 3);
    expect(layout.panes()).toEqual([1, 3, 2]);
    expect(layout.toNotation()).toBe('H0.5[V0.5[P1, P3], P2]');
  });

  test('splitting refuses an unknown target, a pane id already present, and a ratio outside (0, 1)', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    expect(() => layout.split(9, 'row', 3)).toThrow(/pane 9 is not in this tab/);
    expect(() => layout.split(1, 'row', 2)).toThrow(/pane 2 is already in this tab/);
    expect(() => layout.split(1, 'row', -1)).toThrow(/non-negative integer/);
    for (const ratio of [0, 1, 1.5, Number.NaN]) {
      expect(() => layout.split(1, 'row', 3, ratio)).toThrow(/strictly between 0 and 1/);
    }
    expect(layout.toNotation()).toBe('H0.5[P1, P2]');
  });
});

describe('removing', () => {
  test("a removed pane's sibling takes over its space", () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.remove(2);
    expect(layout.toNotation()).toBe('H0.3[P1, H0.4[P3, P4]]');
    expect([...layout.tiles(AREA)]).toEqual([
      [1, rect(0, 0, 30, 40)],
      [3, rect(30, 0, 28, 40)],
      [4, rect(58, 0, 42, 40)],
    ]);
  });

  test('the last pane of a tab cannot be removed, nor can a pane that is not there', () => {
    const layout = new TabLayout(5);
    expect(() => layout.remove(5)).toThrow(/last pane of its tab/);
    expect(() => layout.remove(6)).toThrow(/pane 6 is not in this tab/);
    expect(layout.panes()).toEqual([5]);
  });
});

describe('zoom', () => {
  test('zooming the focused pane gives it the whole area and lists only it, until toggled off', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.focus(3);
    layout.toggleZoom();
    expect(layout.zoomed).toBe(3);
    expect([...layout.contentRects(AREA)]).toEqual([[3, AREA]]);
    expect(layout.tiles(AREA).size).toBe(4);
    layout.toggleZoom();
    expect(layout.zoomed).toBeUndefined();
    expect(layout.contentRects(AREA).size).toBe(4);
  });

  test('zooming a named pane focuses it, and zooming another moves the zoom there', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.toggleZoom(4);
    expect(layout.focused).toBe(4);
    expect(layout.zoomed).toBe(4);
    layout.toggleZoom(2);
    expect(layout.focused).toBe(2);
    expect(layout.zoomed).toBe(2);
  });

  test('removing the zoomed pane clears the zoom, removing a background pane keeps it', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.toggleZoom(2);
    layout.remove(4);
    expect(layout.zoomed).toBe(2);
    layout.remove(2);
    expect(layout.zoomed).toBeUndefined();
    expect(layout.contentRects(AREA).size).toBe(2);
  });

  test('focusing another pane or splitting ends the zoom, refocusing the zoomed pane does not', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.toggleZoom(1);
    layout.focus(1);
    expect(layout.zoomed).toBe(1);
    layout.focus(2);
    expect(layout.zoomed).toBeUndefined();
    layout.toggleZoom();
    layout.split(2, 'row', 5);
    expect(layout.zoomed).toBeUndefined();
  });

  test('zooming a pane that is not in the tab is an error', () => {
    const layout = new TabLayout(1);
    expect(() => layout.toggleZoom(2)).toThrow(/pane 2 is not in this tab/);
    expect(layout.zoomed).toBeUndefined();
  });
});

describe('resizing', () => {
  test('growing the first child of a row split widens it and narrows everything to its right', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(1, 5, AREA)).toBe(true);
    expect([...layout.tiles(AREA)]).toEqual([
      [1, rect(0, 0, 35, 40)],
      [2, rect(35, 0, 65, 24)],
      [3, rect(35, 24, 26, 16)],
      [4, rect(61, 24, 39, 16)],
    ]);
  });

  test('growing the second child of a split moves the divider towards the first', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(4, 2, AREA)).toBe(true);
    expect(layout.tiles(AREA).get(3)).toEqual(rect(30, 24, 26, 16));
    expect(layout.tiles(AREA).get(4)).toEqual(rect(56, 24, 44, 16));
  });

  test('a pane resizes along the axis of the split directly holding it', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(2, 4, AREA)).toBe(true);
    expect(layout.tiles(AREA).get(2)).toEqual(rect(30, 0, 70, 28));
    expect(layout.tiles(AREA).get(3)).toEqual(rect(30, 28, 28, 12));
    expect(layout.resize(3, -3, AREA)).toBe(true);
    expect(layout.tiles(AREA).get(3)).toEqual(rect(30, 28, 25, 12));
  });

  test('shrinking stops where the pane keeps two columns of content beside its separator', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(1, -100, AREA)).toBe(true);
    expect(layout.tiles(AREA).get(1)).toEqual(rect(0, 0, 3, 40));
    expect(layout.contentRects(AREA).get(1)).toEqual(rect(0, 0, 2, 40));
    expect(layout.resize(1, -1, AREA)).toBe(false);
  });

  test('growing stops where every pane on the other side keeps its minimum of content', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(1, 100, AREA)).toBe(true);
    // P3 (with a separator) and P4 (on the right edge) need 3 + 2 columns.
    expect(layout.tiles(AREA).get(1)).toEqual(rect(0, 0, 95, 40));
    expect(layout.contentRects(AREA).get(3)).toEqual(rect(95, 24, 2, 16));
    expect(layout.contentRects(AREA).get(4)).toEqual(rect(98, 24, 2, 16));
    expect(layout.resize(1, 1, AREA)).toBe(false);
  });

  test('a lone pane or a zero delta resizes nothing, and a fractional delta is an error', () => {
    expect(new TabLayout(1).resize(1, 3, AREA)).toBe(false);
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    expect(layout.resize(2, 0, AREA)).toBe(false);
    expect(() => layout.resize(2, 1.5, AREA)).toThrow(/whole number of cells/);
    expect(() => layout.resize(9, 1, AREA)).toThrow(/pane 9 is not in this tab/);
    expect(layout.toNotation()).toBe(ACCEPTANCE);
  });

  test('a resized layout keeps its sizes through a notation round trip', () => {
    const layout = TabLayout.fromNotation(ACCEPTANCE);
    layout.resize(3, 7, AREA);
    layout.resize(2, -5, AREA);
    const copy = TabLayout.fromNotation(layout.toNotation());
    expect([...copy.tiles(AREA)]).toEqual([...layout.tiles(AREA)]);
  });
});
