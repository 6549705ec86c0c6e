import { TabLayout } from '../../src/server/layout';

describe('the layout notation', () => {
  test.each([
    'P7',
    'H0.5[P1, P2]',
    'V0.25[P1, P2]',
    'H0.3[P1, V0.6[P2, H0.4[P3, P4]]]',
    'V0.1[H0.9[P10, P11], V0.333[P12, H0.5[P13, P0]]]',
  ])('%s reads back to the same text', (notation) => {
    expect(TabLayout.fromNotation(notation).toNotation()).toBe(notation);
  });

  test('H is a row split and V a column split, each ratio the first child’s share', () => {
    const layout = TabLayout.fromNotation('H0.3[P1, V0.6[P2, P3]]');
    expect(layout.toJSON()).toEqual({
      axis: 'row',
      ratio: 0.3,
      a: { pane: 1 },
      b: { axis: 'column', ratio: 0.6, a: { pane: 2 }, b: { pane: 3 } },
    });
    expect(JSON.parse(JSON.stringify(layout))).toEqual(layout.toJSON());
  });

  test('whitespace between tokens is allowed and the text comes back in its canonical form', () => {
    const layout = TabLayout.fromNotation(' H0.3 [ P1 ,V0.6[P2,\n H0.4[P3,P4]] ] ');
    expect(layout.toNotation()).toBe('H0.3[P1, V0.6[P2, H0.4[P3, P4]]]');
  });

  test('a layout read from notation focuses its first pane in tree order', () => {
    const layout = TabLayout.fromNotation('V0.5[H0.5[P4, P2], P9]');
    expect(layout.panes()).toEqual([4, 2, 9]);
    expect(layout.focused).toBe(4);
    expect(layout.recentlyFocused()).toEqual([4]);
  });

  test.each([
    ['', /expected 'P', 'H' or 'V' at 0, found the end/],
    ['P', /expected a pane id at 1/],
    ['X0.5[P1, P2]', /expected 'P', 'H' or 'V' at 0, found 'X'/],
    ['H[P1, P2]', /expected a ratio at 1/],
    ['H0[P1, P2]', /strictly between 0 and 1 at 1/],
    ['H1[P1, P2]', /strictly between 0 and 1 at 1/],
    ['H0.5.5[P1, P2]', /strictly between 0 and 1 at 1/],
    ['H0.5[P1 P2]', /expected ',' at 8, found 'P'/],
    ['H0.5[P1, P2', /expected '\]' at 11, found the end/],
    ['H0.5[P1, P2] P3', /expected the end at 13, found 'P'/],
    ['H0.5[P1, P1]', /pane 1 appears twice/],
    ['P99999999999999999999', /pane id 100000000000000000000 is too large/],
  ])('%p is refused with a message saying what was expected where', (notation, message) => {
    expect(() => TabLayout.fromNotation(notation)).toThrow(message);
  });
});
