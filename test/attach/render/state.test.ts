import { AttachState } from '../../../src/client/attach/render/state';
import { plainText } from '../../../src/client/attach/runs';
import { makeView, textRows, viewPane } from './harness';

const text = (state: AttachState, id: number): string[] => state.pane(id)!.lines.map((row) => plainText(row));

describe('AttachState', () => {
  test('a first frame sets the view, the client id, styles and the panes it names', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      client: 'c1',
      reset: true,
      view: makeView(10, 3, [viewPane({ id: 4, x: 0, y: 0, cols: 10, rows: 3, focused: true })]),
      styles: { '1': '1;31', '2': '38;2;1;2;3' },
      panes: { '4': { cols: 10, rows: 3, ...textRows(['ab', '', 'cd']) } },
    });
    expect(state.client).toBe('c1');
    expect(state.seq).toBe(1);
    expect(state.view?.panes[0]!.id).toBe(4);
    expect(state.styles.get(1)).toBe('1;31');
    expect(state.styles.get(2)).toBe('38;2;1;2;3');
    expect(text(state, 4)).toEqual(['ab', '', 'cd']);
    expect(state.pane(4)!.lines.every((row) => row.length === 10)).toBe(true);
    expect(state.pane(5)).toBeUndefined();
  });

  test('a later frame replaces only the rows it sends, and the cursor and modes when sent', () => {
    const state = new AttachState();
    state.apply({ seq: 1, reset: true, panes: { '1': { cols: 5, rows: 3, ...textRows(['a', 'b', 'c']) } } });
    const cursor = { x: 2, y: 1, visible: true, shape: 'bar', blink: true } as const;
    state.apply({ seq: 2, panes: { '1': { lines: { '1': [[0, 'xyz']] }, cursor } } });
    expect(text(state, 1)).toEqual(['a', 'xyz', 'c']);
    expect(state.pane(1)!.cursor).toEqual(cursor);
    expect(state.pane(1)!.modes.appCursor).toBe(false);
    const modes = {
      appCursor: true,
      appKeypad: false,
      bracketedPaste: true,
      mouse: 'any',
      mouseSgr: true,
      focusEvents: false,
      kittyKeyboard: 1,
    } as const;
    state.apply({ seq: 3, panes: { '1': { modes } } });
    expect(state.pane(1)!.modes).toEqual(modes);
    expect(state.pane(1)!.cursor).toEqual(cursor);
  });

  test('styles add to the table; ids already known keep their parameters', () => {
    const state = new AttachState();
    state.apply({ seq: 1, reset: true, styles: { '1': '1' } });
    state.apply({ seq: 2, styles: { '2': '3' } });
    expect([...state.styles.entries()]).toEqual([
      [1, '1'],
      [2, '3'],
    ]);
  });

  test('reset drops every pane, style and the view', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      reset: true,
      view: makeView(5, 1, []),
      styles: { '1': '1' },
      panes: { '1': { cols: 5, rows: 1, ...textRows(['a']) } },
    });
    state.apply({ seq: 2, reset: true, panes: { '2': { cols: 3, rows: 1, ...textRows(['b']) } } });
    expect(state.pane(1)).toBeUndefined();
    expect(state.styles.size).toBe(0);
    expect(state.view).toBeUndefined();
    expect(text(state, 2)).toEqual(['b']);
  });

  test('cols and rows resize the pane buffer, keeping what fits and blanking a wide glyph cut at the edge', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      reset: true,
      panes: {
        '1': {
          cols: 6,
          rows: 2,
          lines: {
            '0': [
              [0, 'abcd'],
              [0, '中', 2],
            ],
            '1': [[0, 'xy']],
          },
        },
      },
    });
    state.apply({ seq: 2, panes: { '1': { cols: 5, rows: 3 } } });
    const pane = state.pane(1)!;
    expect(pane.cols).toBe(5);
    expect(pane.rows).toBe(3);
    expect(pane.lines.map((r) => r.length)).toEqual([5, 5, 5]);
    expect(text(state, 1)).toEqual(['abcd', 'xy', '']);
    expect(pane.lines[0]![4]).toMatchObject({ ch: ' ', width: 1 });
  });

  test('wide cells expand to a glyph and its right half', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      reset: true,
      panes: {
        '1': {
          cols: 4,
          rows: 1,
          lines: {
            '0': [
              [0, '😀', 2],
              [0, 'a'],
            ],
          },
        },
      },
    });
    expect(state.pane(1)!.lines[0]!.slice(0, 3)).toEqual([
      { ch: '😀', width: 2, style: 0 },
      { ch: '', width: 0, style: 0 },
      { ch: 'a', width: 1, style: 0 },
    ]);
  });

  test('a pane first seen without a size takes its rect from the view; rows past it are ignored', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      reset: true,
      view: makeView(8, 2, [viewPane({ id: 3, x: 0, y: 0, cols: 8, rows: 2 })]),
      panes: { '3': { lines: { '0': [[0, 'hi']], '7': [[0, 'nope']] } } },
    });
    expect(state.pane(3)!.cols).toBe(8);
    expect(text(state, 3)).toEqual(['hi', '']);
  });

  test('panes of a tab no longer shown are kept: the server diffs against what it sent', () => {
    const state = new AttachState();
    state.apply({
      seq: 1,
      reset: true,
      view: makeView(5, 1, []),
      panes: { '1': { cols: 5, rows: 1, ...textRows(['a']) } },
    });
    state.apply({ seq: 2, view: makeView(5, 1, [viewPane({ id: 2, x: 0, y: 0, cols: 5, rows: 1 })]) });
    expect(text(state, 1)).toEqual(['a']);
  });

  test('the end of the session is recorded', () => {
    const state = new AttachState();
    state.apply({ seq: 9, end: { reason: 'workspace-closed', message: 'workspace main closed' } });
    expect(state.ended).toEqual({ reason: 'workspace-closed', message: 'workspace main closed' });
  });

  test('frames mark the rows they change; a cursor or modes update marks none; a new or resized pane is all dirty', () => {
    const state = new AttachState();
    state.apply({ seq: 1, reset: true, panes: { '1': { cols: 5, rows: 4, ...textRows(['a']) } } });
    expect(state.dirty.of(1)).toBe('all');
    state.dirty.clear();
    expect(state.dirty.of(1)).toBeUndefined();
    state.apply({ seq: 2, panes: { '1': { lines: { '1': [[0, 'b']], '3': [[0, 'c']], '9': [[0, 'x']] } } } });
    expect([...(state.dirty.of(1) as Set<number>)].sort()).toEqual([1, 3]);
    state.dirty.clear();
    const cursor = { x: 1, y: 1, visible: true, shape: 'block', blink: false } as const;
    state.apply({ seq: 3, panes: { '1': { cursor } } });
    expect(state.dirty.of(1)).toBeUndefined();
    state.apply({ seq: 4, panes: { '1': { rows: 5, lines: { '0': [[0, 'z']] } } } });
    expect(state.dirty.of(1)).toBe('all');
  });

  test('a style id given new parameters is noted; new ids and the same parameters are not', () => {
    const state = new AttachState();
    state.apply({ seq: 1, reset: true, styles: { '1': '31' } });
    state.apply({ seq: 2, styles: { '1': '31', '2': '1' } });
    expect(state.restyled).toBe(false);
    state.apply({ seq: 3, styles: { '2': '3' } });
    expect(state.restyled).toBe(true);
    expect(state.addStyles({ '3': '4' })).toBe(false);
    expect(state.addStyles({ '3': '5' })).toBe(true);
  });
});
