import { TabLayout } from '../../src/server/layout';

const AREA = { x: 0, y: 0, cols: 100, rows: 40 };

describe('focus survives a close', () => {
  test('closing the pane focus moved to returns focus to the pane it came from', () => {
    // P3 is P2's sibling and was focused before; P1 is where focus came from, so P1 wins.
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, P3]]');
    layout.focus(3);
    layout.focus(1);
    layout.focus(2);
    layout.remove(2);
    expect(layout.focused).toBe(1);
  });

  test('closing a freshly split pane returns focus to the pane that opened the split', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    layout.focus(2);
    // Split P1 while P2 is focused, as `fux split -t 1` from another pane would.
    layout.split(1, 'column', 3);
    expect(layout.focused).toBe(3);
    layout.remove(3);
    expect(layout.focused).toBe(1);
    expect(layout.recentlyFocused()).toEqual([1, 2]);
  });

  test('closing a background pane keeps the focus and the history order of the others', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, H0.5[P3, P4]]]');
    layout.focus(4);
    layout.focus(3);
    layout.focus(2);
    expect(layout.recentlyFocused()).toEqual([2, 3, 4, 1]);
    layout.remove(3);
    expect(layout.focused).toBe(2);
    expect(layout.recentlyFocused()).toEqual([2, 4, 1]);
  });

  test('closing the remembered pane drops it from the history, so the next one down takes focus', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, P3]]');
    layout.focus(3);
    layout.focus(1);
    layout.focus(2);
    layout.remove(1);
    expect(layout.recentlyFocused()).toEqual([2, 3]);
    layout.remove(2);
    expect(layout.focused).toBe(3);
  });

  test('resizing a pane leaves the focus history exactly as it was', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, P3]]');
    layout.focus(3);
    layout.focus(2);
    const before = layout.recentlyFocused();
    expect(layout.resize(3, 4, AREA)).toBe(true);
    expect(layout.resize(1, -4, AREA)).toBe(true);
    expect(layout.recentlyFocused()).toEqual(before);
  });

  test('splitting another pane puts the new pane and its opener first and keeps the others in order', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, V0.5[P2, H0.5[P3, P4]]]');
    layout.focus(3);
    layout.focus(4);
    layout.focus(2);
    layout.focus(1);
    expect(layout.recentlyFocused()).toEqual([1, 2, 4, 3]);
    layout.split(4, 'row', 5);
    expect(layout.recentlyFocused()).toEqual([5, 4, 1, 2, 3]);
  });

  test('when no pane left was ever focused, focus goes to the pane beside the closed one in tree order', () => {
    // Only P1 has been focused; its sibling V[P2, P3] takes its space and P2 was next to it.
    const first = TabLayout.fromNotation('H0.5[P1, V0.5[P2, P3]]');
    first.remove(1);
    expect(first.focused).toBe(2);
    // A closed second child hands focus to the last pane of the first: here P4, right before P1.
    const second = TabLayout.fromNotation('H0.5[V0.5[P2, V0.5[P3, P4]], P1]');
    second.focus(1);
    second.remove(2);
    expect(second.recentlyFocused()).toEqual([1]);
    second.remove(1);
    expect(second.focused).toBe(4);
  });

  test('focusing a pane not in the tab is an error and leaves focus alone', () => {
    const layout = TabLayout.fromNotation('H0.5[P1, P2]');
    expect(() => layout.focus(9)).toThrow(/pane 9 is not in this tab/);
    expect(layout.focused).toBe(1);
  });
});
