import type { AttachFrame } from '../../../src/protocol/attach';
import { Harness, hidden, look, makeView, synced, textRows, viewPane } from './harness';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.dispose();
});

/** A harness that records which screen rows each render composited and compared. */
function counted(cols: number, rows: number): Harness & { composited: Set<number>; diffed: Set<number> } {
  const composited = new Set<number>();
  const diffed = new Set<number>();
  const h = new Harness(cols, rows, {
    rowComposited: (y) => composited.add(y),
    rowDiffed: (y) => diffed.add(y),
  });
  harnesses.push(h);
  return Object.assign(h, { composited, diffed });
}

function forget(h: { composited: Set<number>; diffed: Set<number> }): void {
  h.composited.clear();
  h.diffed.clear();
}

const numbered = (n: number, cols: number): string[] =>
  Array.from({ length: n }, (_, i) => `row ${i} `.repeat(cols).slice(0, cols));

/** One focused pane filling a `cols` × `rows` area with numbered rows. */
function onePane(cols: number, rows: number, extra: Partial<AttachFrame> = {}): AttachFrame {
  return {
    seq: 1,
    reset: true,
    view: makeView(cols, rows, [viewPane({ id: 1, x: 0, y: 0, cols, rows, focused: true })]),
    panes: { '1': { cols, rows, ...textRows(numbered(rows, cols)), cursor: hidden } },
    ...extra,
  };
}

describe('Compositor: a render costs what changed', () => {
  test('a one-cell frame composites and compares only its row, and writes only that cell', async () => {
    const h = counted(200, 50);
    await h.frame(onePane(200, 48));
    expect(h.composited.size).toBe(50);
    forget(h);
    const row = numbered(48, 200)[20]!;
    const out = await h.frame({ seq: 2, panes: { '1': { lines: { '20': [[0, 'X' + row.slice(1)]] } } } });
    expect([...h.composited]).toEqual([21]);
    expect([...h.diffed]).toEqual([21]);
    expect(out).toBe(synced('\x1b[22HX'));
    expect(h.line(21).slice(0, 6)).toBe('Xow 20');
  });

  test('a cursor-only frame composites and compares no row, and moves the cursor alone', async () => {
    const h = counted(40, 8);
    const cursor = { x: 2, y: 1, visible: true, shape: 'block', blink: false } as const;
    await h.frame(onePane(40, 6, { panes: { '1': { cols: 40, rows: 6, cursor } } }));
    forget(h);
    const out = await h.frame({ seq: 2, panes: { '1': { cursor: { ...cursor, x: 5 } } } });
    expect(h.composited.size).toBe(0);
    expect(h.diffed.size).toBe(0);
    expect(out).toBe(synced('\x1b[3;6H'));
    expect(h.cursor).toEqual({ x: 5, y: 2 });
  });

  test('a view that changes only the tabs or status repaints the tab bar and status line, no pane row', async () => {
    const h = counted(40, 8);
    await h.frame(onePane(40, 6));
    forget(h);
    const view = makeView(40, 6, [viewPane({ id: 1, x: 0, y: 0, cols: 40, rows: 6, focused: true })], {
      status: [{ segment: 'clock', text: '12:01' }],
    });
    await h.frame({ seq: 2, view });
    expect([...h.composited].sort((a, b) => a - b)).toEqual([0, 7]);
    expect(h.line(7).endsWith('12:01')).toBe(true);
    expect(h.line(1)).toBe(numbered(6, 40)[0]!.trimEnd());
  });

  test('a new mode marker repaints the status line only; setting the same one again renders nothing', async () => {
    const h = counted(40, 8);
    await h.frame(onePane(40, 6));
    forget(h);
    h.compositor.setMode('PREFIX');
    await h.render();
    expect([...h.composited]).toEqual([7]);
    expect(h.line(7).startsWith(' PREFIX ')).toBe(true);
    forget(h);
    h.compositor.setMode('PREFIX');
    expect(await h.render()).toBe('');
    expect(h.composited.size).toBe(0);
  });

  test('a layout change composites the whole screen again', async () => {
    const h = counted(41, 8);
    await h.frame(onePane(41, 6));
    forget(h);
    await h.frame({
      seq: 2,
      view: makeView(41, 6, [
        viewPane({ id: 1, x: 0, y: 0, cols: 20, rows: 6, focused: true }),
        viewPane({ id: 2, x: 21, y: 0, cols: 20, rows: 6 }),
      ]),
      panes: { '1': { cols: 20 }, '2': { cols: 20, rows: 6, ...textRows(['right']) } },
    });
    expect(h.composited.size).toBe(8);
    expect(h.line(1)).toBe(`${numbered(6, 41)[0]!.slice(0, 20)}│right`);
  });

  test('every frame that writes anything is one synchronized update; a frame that changes nothing writes nothing', async () => {
    const h = counted(20, 5);
    await h.frame(onePane(20, 3));
    const before = h.observed.sync;
    const out = await h.frame({ seq: 2, panes: { '1': { lines: { '0': [[0, 'a']] } } } });
    expect(out.startsWith('\x1b[?2026h')).toBe(true);
    expect(out.endsWith('\x1b[?2026l')).toBe(true);
    expect(h.observed.sync).toBe(before + 1);
    expect(await h.frame({ seq: 3, panes: { '1': { lines: { '0': [[0, 'a']] } } } })).toBe('');
    expect(h.observed.sync).toBe(before + 1);
  });

  test('a style id given new parameters repaints the cells that use it', async () => {
    const h = counted(20, 5);
    await h.frame(
      onePane(20, 3, {
        styles: { '1': '31' },
        panes: { '1': { cols: 20, rows: 3, lines: { '2': [[1, 'red']] }, cursor: hidden } },
      }),
    );
    expect(look(h.cell(0, 3)).fg).toBe('16:1');
    await h.frame({ seq: 2, styles: { '1': '32' } });
    expect(look(h.cell(0, 3)).fg).toBe('16:2');
  });
});

describe('Compositor: changed rows under what covers them', () => {
  test('a pane row that changes under the help overlay stays covered by it', async () => {
    const h = counted(40, 12);
    await h.frame(onePane(40, 10));
    h.compositor.setOverlay({ kind: 'help', lines: ['C-a d detach'] });
    await h.render();
    const top = Array.from({ length: 12 }, (_, y) => h.line(y)).findIndex((r) => r.includes('C-a d detach'));
    expect(top).toBeGreaterThan(0);
    await h.frame({ seq: 2, panes: { '1': { lines: { [String(top - 1)]: [[0, 'z'.repeat(40)]] } } } });
    expect(h.line(top)).toContain('│ C-a d detach');
    expect(h.line(top).startsWith('zzz')).toBe(true);
  });

  test('a pane row that changes under a popup stays under it, and the popup’s own rows update', async () => {
    const h = counted(40, 12);
    const frame = onePane(40, 10, {
      view: makeView(40, 10, [viewPane({ id: 1, x: 0, y: 0, cols: 40, rows: 10, focused: true })], {
        popup: { id: 9, x: 10, y: 3, cols: 12, rows: 3, title: 'pick' },
      }),
    });
    frame.panes!['9'] = { cols: 12, rows: 3, ...textRows(['one']), cursor: hidden };
    await h.frame(frame);
    expect(h.line(4).slice(9, 23)).toBe('│one         │');
    await h.frame({
      seq: 2,
      panes: { '1': { lines: { '3': [[0, 'y'.repeat(40)]] } }, '9': { lines: { '0': [[0, 'two']] } } },
    });
    expect(h.line(4)).toBe(`${'y'.repeat(9)}│two         │${'y'.repeat(17)}`);
  });

  test('a frame for a pane in copy mode leaves the copy view showing', async () => {
    const h = counted(20, 6);
    await h.frame(onePane(20, 4));
    h.compositor.setCopyView({
      pane: 1,
      lines: [0, 1, 2, 3].map((i) =>
        Array.from(`old ${i}`).map((ch) => ({ ch, width: 1 as const, style: 0 })),
      ),
      cursor: { x: 0, y: 0 },
      selection: [],
      label: '[1/9]',
    });
    await h.render();
    await h.frame({ seq: 2, panes: { '1': { lines: { '0': [[0, 'live']], '1': [[0, 'live']] } } } });
    expect(h.line(1)).toBe('old 0          [1/9]');
    expect(h.line(2)).toBe('old 1');
  });

  test('a mouse selection stays inverse, once, across frames that change its rows and others', async () => {
    const h = counted(20, 6);
    await h.frame(onePane(20, 4));
    h.compositor.setSelection([{ y: 1, from: 0, to: 3 }]);
    await h.render();
    await h.frame({ seq: 2, panes: { '1': { lines: { '2': [[0, 'other']] } } } });
    expect(look(h.cell(0, 1)).attrs).toEqual(['inverse']);
    await h.frame({ seq: 3, panes: { '1': { lines: { '0': [[0, 'sel']] } } } });
    expect(look(h.cell(0, 1)).attrs).toEqual(['inverse']);
    expect(look(h.cell(3, 1)).attrs).toEqual([]);
    expect(h.line(1)).toBe('sel');
  });
});
