import type { AttachFrame, Row } from '../../../src/protocol/attach';
import { Harness, hidden, look, makeView, synced, textRows, viewPane } from './harness';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.dispose();
});

function harness(cols: number, rows: number): Harness {
  const h = new Harness(cols, rows);
  harnesses.push(h);
  return h;
}

/** One pane filling a `cols` × `rows` area, focused, with these rows. */
function onePane(
  cols: number,
  rows: number,
  lines: Record<string, Row>,
  extra: Partial<AttachFrame> = {},
): AttachFrame {
  return {
    seq: 1,
    reset: true,
    view: makeView(cols, rows, [viewPane({ id: 1, x: 0, y: 0, cols, rows, focused: true })]),
    panes: { '1': { cols, rows, lines, cursor: hidden } },
    ...extra,
  };
}

describe('Compositor: what a pane draws reaches the terminal', () => {
  test('truecolor, 256 and 16 colours, foreground and background', async () => {
    const h = harness(30, 6);
    await h.frame(
      onePane(
        30,
        4,
        {
          '0': [
            [1, 'a'],
            [2, 'b'],
            [3, 'c'],
            [4, 'd'],
            [5, 'e'],
            [6, 'f'],
            [7, 'g'],
            [8, 'h'],
          ],
        },
        {
          styles: {
            '1': '38;2;255;128;0',
            '2': '48;2;1;2;3',
            '3': '38;5;200',
            '4': '48;5;17',
            '5': '31',
            '6': '104',
            '7': '91;42',
            '8': '38;2;10;20;30;48;5;250',
          },
        },
      ),
    );
    const row = 1; // the pane area starts under the tab bar
    expect(look(h.cell(0, row))).toEqual({ fg: 'rgb(255,128,0)', bg: 'default', attrs: [] });
    expect(look(h.cell(1, row))).toEqual({ fg: 'default', bg: 'rgb(1,2,3)', attrs: [] });
    expect(look(h.cell(2, row))).toMatchObject({ fg: '256:200' });
    expect(look(h.cell(3, row))).toMatchObject({ bg: '256:17' });
    expect(look(h.cell(4, row))).toMatchObject({ fg: '16:1', bg: 'default' });
    expect(look(h.cell(5, row))).toMatchObject({ fg: 'default', bg: '16:12' });
    expect(look(h.cell(6, row))).toMatchObject({ fg: '16:9', bg: '16:2' });
    expect(look(h.cell(7, row))).toEqual({ fg: 'rgb(10,20,30)', bg: '256:250', attrs: [] });
    expect(h.line(row)).toBe('abcdefgh');
  });

  test('bold, dim, italic, underline, inverse, strikethrough, overline and invisible', async () => {
    const h = harness(30, 6);
    const names = ['bold', 'dim', 'italic', 'underline', 'inverse', 'strikethrough', 'overline', 'invisible'];
    const codes = ['1', '2', '3', '4', '7', '9', '53', '8'];
    const styles: Record<string, string> = {};
    codes.forEach((c, i) => (styles[String(i + 1)] = c));
    styles['9'] = '1;3;4;38;2;9;8;7';
    const run: Row = codes.map((_, i) => [i + 1, String(i)]);
    run.push([9, 'z']);
    await h.frame(onePane(30, 4, { '0': run }, { styles }));
    names.forEach((name, i) => expect(look(h.cell(i, 1)).attrs).toEqual([name]));
    expect(look(h.cell(8, 1))).toEqual({
      fg: 'rgb(9,8,7)',
      bg: 'default',
      attrs: ['bold', 'italic', 'underline'],
    });
    // Nothing leaks past a styled run.
    expect(look(h.cell(9, 1))).toEqual({ fg: 'default', bg: 'default', attrs: [] });
  });

  test('wide CJK glyphs and emoji land on their columns, in a pane away from the left edge', async () => {
    const h = harness(30, 6);
    await h.frame({
      seq: 1,
      reset: true,
      view: makeView(30, 4, [
        viewPane({ id: 1, x: 0, y: 0, cols: 9, rows: 4 }),
        viewPane({ id: 2, x: 10, y: 0, cols: 20, rows: 4, focused: true }),
      ]),
      panes: {
        '1': { cols: 9, rows: 4, ...textRows(['left']) },
        '2': {
          cols: 20,
          rows: 4,
          lines: {
            '0': [
              [0, 'a'],
              [0, '中', 2],
              [0, 'b'],
              [0, '😀', 2],
              [0, 'c'],
              [0, 'e\u0301', 1],
              [0, 'd'],
            ],
          },
          cursor: hidden,
        },
      },
    });
    const at = (x: number): [string, number] => [h.cell(x, 1).getChars(), h.cell(x, 1).getWidth()];
    expect(at(10)).toEqual(['a', 1]);
    expect(at(11)).toEqual(['中', 2]);
    expect(at(12)).toEqual(['', 0]);
    expect(at(13)).toEqual(['b', 1]);
    expect(at(14)).toEqual(['😀', 2]);
    expect(at(16)).toEqual(['c', 1]);
    expect(at(17)).toEqual(['e\u0301', 1]);
    expect(at(18)).toEqual(['d', 1]);
    expect(h.line(1).startsWith('left     │')).toBe(true);
  });

  test('a wide glyph at the last column of a pane is a blank, never half a glyph over the border', async () => {
    const h = harness(12, 5);
    await h.frame({
      seq: 1,
      reset: true,
      view: makeView(12, 3, [
        viewPane({ id: 1, x: 0, y: 0, cols: 5, rows: 3, focused: true }),
        viewPane({ id: 2, x: 6, y: 0, cols: 6, rows: 3 }),
      ]),
      // The server says 6 cols: the pane's mirror is wider than its rect while a resize is in flight.
      panes: {
        '1': {
          cols: 6,
          rows: 3,
          lines: {
            '0': [
              [0, 'abcd'],
              [0, '中', 2],
            ],
          },
        },
        '2': { cols: 6, rows: 3 },
      },
    });
    expect(h.line(1).slice(0, 6)).toBe('abcd │');
    expect(h.cell(5, 1).getChars()).toBe('│');
  });
});

describe('Compositor: chrome', () => {
  test('borders between panes are box-drawing characters, green next to the focused pane and grey elsewhere', async () => {
    const h = harness(21, 7);
    await h.frame({
      seq: 1,
      reset: true,
      view: makeView(21, 5, [
        viewPane({ id: 1, x: 0, y: 0, cols: 10, rows: 5, focused: true }),
        viewPane({ id: 2, x: 11, y: 0, cols: 10, rows: 2 }),
        viewPane({ id: 3, x: 11, y: 3, cols: 10, rows: 2 }),
      ]),
      panes: { '1': { cols: 10, rows: 5 }, '2': { cols: 10, rows: 2 }, '3': { cols: 10, rows: 2 } },
    });
    for (let y = 1; y <= 5; y++) expect(h.cell(10, y).getChars()).toBe(y === 3 ? '├' : '│');
    expect(h.line(3).slice(10)).toBe('├──────────');
    expect(look(h.cell(10, 1)).fg).toBe('16:2');
    expect(look(h.cell(10, 3)).fg).toBe('16:2');
    expect(look(h.cell(15, 3)).fg).toBe('256:240');
    expect(h.written).not.toContain('\x1b(0');

    // Focus moves to the bottom-right pane: its top border turns green, the left pane's line goes grey.
    const view = makeView(21, 5, [
      viewPane({ id: 1, x: 0, y: 0, cols: 10, rows: 5 }),
      viewPane({ id: 2, x: 11, y: 0, cols: 10, rows: 2 }),
      viewPane({ id: 3, x: 11, y: 3, cols: 10, rows: 2, focused: true }),
    ]);
    await h.frame({ seq: 2, view });
    expect(look(h.cell(15, 3)).fg).toBe('16:2');
    expect(look(h.cell(10, 1)).fg).toBe('256:240');
    expect(look(h.cell(10, 5)).fg).toBe('16:2');
  });

  test('the tab bar shows the workspace, each tab with its agent glyph and unseen mark, the active one highlighted', async () => {
    const h = harness(60, 6);
    const view = makeView(60, 4, [viewPane({ id: 1, x: 0, y: 0, cols: 60, rows: 4, focused: true })], {
      workspace: 'proj',
      tabs: [
        { number: 1, title: 'sh', panes: 1, active: true, state: 'none', unseen: false },
        { number: 2, title: 'claude', panes: 2, active: false, state: 'working', unseen: true },
        { number: 3, title: 'codex', panes: 1, active: false, state: 'blocked', unseen: false },
        { number: 4, title: 'idle', panes: 1, active: false, state: 'idle', unseen: false },
      ],
    });
    await h.frame({ seq: 1, reset: true, view, panes: { '1': { cols: 60, rows: 4 } } });
    const bar = h.line(0);
    expect(bar).toContain(' proj ');
    expect(bar).toContain(' 1:sh ');
    expect(bar).toContain(' 2:claude ●* ');
    expect(bar).toContain(' 3:codex ◐ ');
    expect(bar.endsWith(' 4:idle ○')).toBe(true);
    const active = bar.indexOf('1:sh');
    const other = bar.indexOf('2:claude');
    expect(look(h.cell(active, 0)).attrs).toContain('bold');
    expect(look(h.cell(active, 0)).bg).not.toBe(look(h.cell(other, 0)).bg);
    expect(h.compositor.tabAt(active, 0)).toBe(1);
    expect(h.compositor.tabAt(other + 3, 0)).toBe(2);
    expect(h.compositor.tabAt(bar.indexOf('4:idle'), 0)).toBe(4);
    expect(h.compositor.tabAt(1, 0)).toBeUndefined();
    expect(h.compositor.tabAt(active, 1)).toBeUndefined();
  });

  test("a tab's label collapses the title's padding: a padded title does not push the other tabs off (issue 31.11)", async () => {
    const h = harness(60, 6);
    const view = makeView(60, 4, [viewPane({ id: 1, x: 0, y: 0, cols: 60, rows: 4, focused: true })], {
      tabs: [
        {
          number: 1,
          title: `◇  Ready (work)${' '.repeat(65)}`,
          panes: 1,
          active: true,
          state: 'idle',
          unseen: false,
        },
        { number: 2, title: ' bash\t', panes: 1, active: false, state: 'none', unseen: true },
      ],
    });
    await h.frame({ seq: 1, reset: true, view, panes: { '1': { cols: 60, rows: 4 } } });
    expect(h.line(0)).toBe(' main  1:◇ Ready (work) ○  2:bash*');
  });

  test("the status line shows the mode, each pane's id and glyph (unseen marked), and the status segments at the right", async () => {
    const h = harness(50, 6);
    const view = makeView(
      50,
      4,
      [
        viewPane({ id: 1, x: 0, y: 0, cols: 12, rows: 4, state: 'working', focused: true }),
        viewPane({ id: 2, x: 13, y: 0, cols: 12, rows: 4, state: 'blocked', unseen: true }),
        viewPane({ id: 3, x: 26, y: 0, cols: 12, rows: 4, state: 'idle' }),
        viewPane({ id: 4, x: 39, y: 0, cols: 11, rows: 4, state: 'none' }),
      ],
      {
        status: [
          { segment: 'git', text: 'main' },
          { segment: 'clock', text: '12:00' },
        ],
      },
    );
    h.compositor.setMode('PREFIX');
    await h.frame({ seq: 1, reset: true, view });
    const status = h.line(5);
    expect(status.startsWith(' PREFIX  1:● 2:◐* 3:○ 4 ')).toBe(true);
    expect(status.endsWith(' main | 12:00')).toBe(true);
    expect(look(h.cell(status.indexOf('1:●') + 2, 5)).fg).toBe('16:3');
    expect(look(h.cell(status.indexOf('2:◐') + 2, 5)).fg).toBe('16:1');
    expect(look(h.cell(status.indexOf('3:○') + 2, 5)).fg).toBe('16:2');

    // A glyph change on the server shows on the next frame.
    const next = structuredClone(view);
    next.panes[0]!.state = 'idle';
    h.compositor.setMode(undefined);
    await h.frame({ seq: 2, view: next });
    expect(h.line(5).startsWith(' 1:○ 2:◐* 3:○ 4 ')).toBe(true);
  });

  test('the status line is clipped to the width', async () => {
    const h = harness(16, 4);
    const panes = [1, 2, 3, 4, 5, 6].map((id) =>
      viewPane({ id, x: 0, y: 0, cols: 16, rows: 2, state: 'working' }),
    );
    await h.frame({
      seq: 1,
      reset: true,
      view: makeView(16, 2, panes, { status: [{ segment: 's', text: 'a long status text' }] }),
    });
    expect(h.line(3)).toBe(' 1:● 2:● 3:● 4:●');
    expect(h.line(2)).not.toContain('●');
  });
});

describe('Compositor: popups and overlays', () => {
  function withPopup(): AttachFrame {
    return {
      seq: 1,
      reset: true,
      view: makeView(40, 10, [viewPane({ id: 1, x: 0, y: 0, cols: 40, rows: 10, focused: true })], {
        popup: { id: 9, x: 10, y: 3, cols: 12, rows: 3, title: 'pick' },
      }),
      panes: {
        '1': {
          cols: 40,
          rows: 10,
          ...textRows(Array.from({ length: 10 }, () => 'x'.repeat(40))),
          cursor: hidden,
        },
        '9': {
          cols: 12,
          rows: 3,
          lines: { '0': [[0, 'one']], '1': [[1, 'two']] },
          cursor: { x: 3, y: 1, visible: true, shape: 'block', blink: false },
        },
      },
      styles: { '1': '1;32' },
    };
  }

  test('a popup is a bordered box with its title around its rect, its cells inside, over the panes', async () => {
    const h = harness(40, 12);
    await h.frame(withPopup());
    // The rect is at area (10, 3): screen (10, 4); the frame one cell around it.
    expect(h.line(3).slice(9, 23)).toMatch(/^┌.*pick.*┐$/);
    expect(h.line(4).slice(9, 23)).toBe('│one         │');
    expect(h.line(5).slice(9, 23)).toBe('│two         │');
    expect(h.line(7).slice(9, 23)).toBe('└────────────┘');
    expect(h.line(4).slice(0, 9)).toBe('xxxxxxxxx');
    expect(look(h.cell(10, 5))).toMatchObject({ fg: '16:2', attrs: ['bold'] });
    expect(look(h.cell(9, 4)).fg).toBe('16:2');
    expect(h.cursor).toEqual({ x: 13, y: 5 });
    expect(h.observed.cursorVisible).toBe(true);
    expect(h.compositor.paneAt(12, 5)).toEqual({ pane: 9, x: 2, y: 1 });
    expect(h.compositor.paneAt(2, 5)).toEqual({ pane: 1, x: 2, y: 4 });
  });

  test('a wide glyph the popup frame cuts is blanked, not split', async () => {
    const h = harness(40, 12);
    const frame = withPopup();
    frame.panes!['1']!.lines!['4'] = [
      [0, 'x'.repeat(8)],
      [0, '中', 2],
      [0, 'yy'],
    ];
    await h.frame(frame);
    expect(h.line(5).slice(7, 11)).toBe('x │t');
    expect(h.cell(8, 5).getWidth()).toBe(1);
  });

  test('the help overlay is a centred bordered box of lines, and hides the cursor', async () => {
    const h = harness(40, 12);
    await h.frame(withPopup());
    h.compositor.setOverlay({ kind: 'help', lines: ['C-a | split right', 'C-a d detach'] });
    await h.render();
    const rows = Array.from({ length: 12 }, (_, y) => h.line(y));
    const top = rows.findIndex((r) => r.includes('┌') && r.includes('help'));
    expect(top).toBeGreaterThan(0);
    expect(rows[top + 1]).toContain('│ C-a | split right');
    expect(rows[top + 2]).toContain('│ C-a d detach');
    expect(rows[top + 3]).toContain('└');
    expect(h.observed.cursorVisible).toBe(false);
    h.compositor.setOverlay(undefined);
    await h.render();
    expect(h.observed.cursorVisible).toBe(true);
    // What the overlay covered shows again: the pane around the popup's frame.
    expect(h.line(top + 1)).not.toContain('split right');
    expect(h.line(4)).toBe('xxxxxxxxx│one         │xxxxxxxxxxxxxxxxx');
  });

  test('the picker lists its items with the selected one highlighted', async () => {
    const h = harness(40, 12);
    await h.frame(withPopup());
    h.compositor.setOverlay({
      kind: 'picker',
      title: 'workspaces',
      items: ['alpha', 'beta', 'gamma'],
      selected: 1,
    });
    await h.render();
    const rows = Array.from({ length: 12 }, (_, y) => h.line(y));
    const beta = rows.findIndex((r) => r.includes('beta'));
    const alpha = rows.findIndex((r) => r.includes('alpha'));
    expect(rows.some((r) => r.includes('workspaces'))).toBe(true);
    expect(look(h.cell(rows[beta]!.indexOf('beta'), beta)).bg).toBe('16:6');
    expect(look(h.cell(rows[alpha]!.indexOf('alpha'), alpha)).bg).not.toBe('16:6');
  });

  test('a picker opens after a popup has closed (issue 31.1: the closed popup emptied the focus stack)', async () => {
    const h = harness(40, 12);
    await h.frame(withPopup());
    const closed = withPopup();
    closed.view!.popup = null;
    await h.frame(closed);
    h.compositor.setOverlay({ kind: 'picker', title: 'workspaces', items: ['alpha', 'beta'], selected: 0 });
    await h.render();
    const rows = Array.from({ length: 12 }, (_, y) => h.line(y));
    expect(rows.some((r) => r.includes('workspaces'))).toBe(true);
    expect(rows.some((r) => r.includes('beta'))).toBe(true);
    h.compositor.setOverlay({ kind: 'help', lines: ['C-a d detach'] });
    await h.render();
    expect(Array.from({ length: 12 }, (_, y) => h.line(y)).some((r) => r.includes('C-a d detach'))).toBe(
      true,
    );
  });

  test('a message shows on the status line', async () => {
    const h = harness(40, 12);
    await h.frame(withPopup());
    h.compositor.setOverlay({ kind: 'message', text: 'reconnecting…' });
    await h.render();
    expect(h.line(11)).toBe(' reconnecting…');
    expect(h.observed.cursorVisible).toBe(true);
  });
});

describe('Compositor: copy view and selections', () => {
  test('the copy view replaces the pane rows, shows its selection inverse and its label at the top-right', async () => {
    const h = harness(20, 6);
    await h.frame(onePane(20, 4, { '0': [[0, 'live']] }));
    h.compositor.setCopyView({
      pane: 1,
      lines: [[], [], [], []].map((_, i) =>
        Array.from(`old ${i}`).map((ch) => ({ ch, width: 1 as const, style: 0 })),
      ),
      cursor: { x: 1, y: 2 },
      selection: [{ y: 1, from: 0, to: 3 }],
      label: '[3/40]',
    });
    await h.render();
    expect(h.line(1)).toBe('old 0         [3/40]');
    expect(h.line(2)).toBe('old 1');
    expect(look(h.cell(0, 2)).attrs).toEqual(['inverse']);
    expect(look(h.cell(2, 2)).attrs).toEqual(['inverse']);
    expect(look(h.cell(3, 2)).attrs).toEqual([]);
    expect(h.cursor).toEqual({ x: 1, y: 3 });
    h.compositor.setCopyView(undefined);
    await h.render();
    expect(h.line(1)).toBe('live');
  });

  test('a mouse selection shows inverse and textAt gives its text, rows joined by newlines', async () => {
    const h = harness(20, 6);
    await h.frame(
      onePane(20, 4, {
        '0': [[0, 'hello world']],
        '1': [
          [0, 'a'],
          [0, '中', 2],
          [0, 'b   '],
        ],
      }),
    );
    const sel = [
      { y: 1, from: 6, to: 20 },
      { y: 2, from: 0, to: 4 },
    ];
    h.compositor.setSelection(sel);
    await h.render();
    expect(look(h.cell(6, 1)).attrs).toEqual(['inverse']);
    expect(look(h.cell(5, 1)).attrs).toEqual([]);
    expect(look(h.cell(1, 2)).attrs).toEqual(['inverse']);
    expect(h.compositor.textAt(sel)).toBe('world\na中b');
    h.compositor.setSelection(undefined);
    await h.render();
    expect(look(h.cell(6, 1)).attrs).toEqual([]);
  });
});

describe('Compositor: the cursor', () => {
  test("the cursor sits at the focused pane's cursor with its shape, and only changes are sent", async () => {
    const h = harness(40, 8);
    const view = makeView(40, 6, [
      viewPane({ id: 1, x: 0, y: 0, cols: 19, rows: 6 }),
      viewPane({ id: 2, x: 20, y: 0, cols: 20, rows: 6, focused: true }),
    ]);
    await h.frame({
      seq: 1,
      reset: true,
      view,
      panes: {
        '1': { cols: 19, rows: 6, cursor: { x: 1, y: 1, visible: true, shape: 'block', blink: false } },
        '2': { cols: 20, rows: 6, cursor: { x: 3, y: 2, visible: true, shape: 'bar', blink: true } },
      },
    });
    expect(h.cursor).toEqual({ x: 23, y: 3 });
    expect(h.observed.cursorShape).toBe(5);
    expect(h.observed.cursorVisible).toBe(true);

    const shapes: Array<[PaneCursorShape, boolean, number]> = [
      ['bar', false, 6],
      ['underline', true, 3],
      ['underline', false, 4],
      ['block', true, 1],
      ['block', false, 2],
    ];
    let seq = 2;
    for (const [shape, blink, code] of shapes) {
      await h.frame({ seq: seq++, panes: { '2': { cursor: { x: 4, y: 2, visible: true, shape, blink } } } });
      expect(h.observed.cursorShape).toBe(code);
      expect(h.cursor).toEqual({ x: 24, y: 3 });
    }

    // A cell changing elsewhere moves the cursor back without resending its shape or visibility.
    const out = await h.frame({ seq: seq++, panes: { '1': { lines: { '0': [[0, 'z']] } } } });
    expect(out).toBe(synced('\x1b[2Hz\x1b[4;25H'));

    await h.frame({
      seq,
      panes: { '2': { cursor: { x: 4, y: 2, visible: false, shape: 'block', blink: false } } },
    });
    expect(h.observed.cursorVisible).toBe(false);
  });

  test("a pane that never set a shape leaves the terminal's shape alone", async () => {
    const h = harness(20, 5);
    await h.frame(
      onePane(
        20,
        3,
        {},
        {
          panes: {
            '1': { cols: 20, rows: 3, cursor: { x: 0, y: 0, visible: true, shape: 'block', blink: false } },
          },
        },
      ),
    );
    expect(h.observed.cursorShape).toBeUndefined();
    expect(h.cursor).toEqual({ x: 0, y: 1 });
  });
});

type PaneCursorShape = 'block' | 'underline' | 'bar';

describe('Compositor: minimal output', () => {
  test('a second identical render, or the same frame again, writes 0 bytes', async () => {
    const h = harness(40, 8);
    const frame = onePane(
      40,
      6,
      {
        '0': [
          [1, 'styled'],
          [0, ' plain 中'],
        ],
      },
      { styles: { '1': '1;38;2;1;2;3' } },
    );
    await h.frame(frame);
    expect(await h.render()).toBe('');
    expect(await h.frame({ ...frame, reset: false })).toBe('');
  });

  test('a one-cell change writes only a few bytes', async () => {
    const h = harness(80, 24);
    const rows = Array.from({ length: 22 }, (_, i) => `line ${i} `.repeat(8));
    await h.frame({
      ...onePane(80, 22, {}),
      panes: { '1': { cols: 80, rows: 22, ...textRows(rows), cursor: hidden } },
    });
    const changed = rows[10]!.slice(0, 5) + 'X' + rows[10]!.slice(6);
    const out = await h.frame({ seq: 2, panes: { '1': { lines: { '10': [[0, changed]] } } } });
    expect(out).toBe(synced('\x1b[12;6HX'));
    expect(h.line(11).slice(0, 7)).toBe('line X0');
  });

  test('a full repaint of a 200×50 screen of styled text writes at most about one screen’s worth', async () => {
    const cols = 200;
    const rows = 50;
    const h = harness(cols, rows);
    const styles: Record<string, string> = {};
    for (let i = 1; i <= 64; i++)
      styles[String(i)] = `${i % 2 ? '1;' : ''}38;2;${i * 3};${255 - i};${i};48;5;${i + 16}`;
    const lines: Record<string, Row> = {};
    for (let y = 0; y < rows - 2; y++) {
      const row: Row = [];
      for (let x = 0; x < cols; x += 5) row.push([((x / 5 + y) % 64) + 1, 'abcde']);
      lines[String(y)] = row;
    }
    const out = await h.frame(onePane(cols, rows - 2, lines, { styles }));
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(cols * rows * 12);
    expect(h.observed.sync).toBe(1);
    expect(h.line(1).slice(0, 10)).toBe('abcdeabcde');
    expect(look(h.cell(199, 48))).toMatchObject({
      fg: expect.stringMatching(/^rgb/),
      bg: expect.stringMatching(/^256:/),
    });
    expect(await h.render()).toBe('');
  });
});

describe('Compositor: the outer terminal', () => {
  test('start enters the alternate screen with SGR mouse, bracketed paste and focus reports, cursor keys normal', async () => {
    const h = harness(20, 5);
    await h.settle();
    expect(h.term.buffer.active.type).toBe('alternate');
    expect(h.term.modes).toMatchObject({
      mouseTrackingMode: 'drag',
      bracketedPasteMode: true,
      sendFocusMode: true,
      applicationCursorKeysMode: false,
      applicationKeypadMode: false,
    });
    expect(h.written).toContain('\x1b[?1006h');
  });

  test('key modes follow the focused pane: DECCKM, keypad, any-motion mouse and kitty flags, and back', async () => {
    const h = harness(20, 5);
    h.compositor.setKeyModes({
      appCursor: true,
      appKeypad: true,
      bracketedPaste: true,
      mouse: 'any',
      mouseSgr: true,
      focusEvents: false,
      kittyKeyboard: 3,
    });
    await h.settle();
    expect(h.term.modes).toMatchObject({
      applicationCursorKeysMode: true,
      applicationKeypadMode: true,
      mouseTrackingMode: 'any',
    });
    expect(h.observed.kitty).toEqual([3]);
    h.compositor.setKeyModes({
      appCursor: true,
      appKeypad: true,
      bracketedPaste: true,
      mouse: 'any',
      mouseSgr: true,
      focusEvents: false,
      kittyKeyboard: 3,
    });
    expect(await h.settle()).toBe('');
    h.compositor.setKeyModes(undefined);
    await h.settle();
    expect(h.term.modes).toMatchObject({
      applicationCursorKeysMode: false,
      applicationKeypadMode: false,
      mouseTrackingMode: 'drag',
    });
    expect(h.observed.kitty).toEqual([]);
  });

  test('destroy undoes everything: kitty flags popped, modes off, cursor shown in its default shape, main screen', async () => {
    const h = new Harness(20, 5);
    await h.frame(
      onePane(
        20,
        3,
        {},
        {
          panes: {
            '1': { cols: 20, rows: 3, cursor: { x: 0, y: 0, visible: true, shape: 'bar', blink: false } },
          },
        },
      ),
    );
    expect(h.observed.cursorShape).toBe(6);
    h.compositor.apply({
      seq: 2,
      panes: { '1': { cursor: { x: 0, y: 0, visible: false, shape: 'bar', blink: false } } },
    });
    h.compositor.setKeyModes({
      appCursor: true,
      appKeypad: false,
      bracketedPaste: false,
      mouse: 'any',
      mouseSgr: true,
      focusEvents: false,
      kittyKeyboard: 1,
    });
    await h.render();
    expect(h.observed.cursorVisible).toBe(false);
    h.compositor.destroy();
    await h.settle();
    expect(h.term.buffer.active.type).toBe('normal');
    expect(h.term.modes).toMatchObject({
      mouseTrackingMode: 'none',
      bracketedPasteMode: false,
      sendFocusMode: false,
      applicationCursorKeysMode: false,
      applicationKeypadMode: false,
    });
    expect(h.observed.kitty).toEqual([]);
    expect(h.observed.cursorVisible).toBe(true);
    expect(h.observed.cursorShape).toBe(0);
    expect(h.written).toContain('\x1b[?1006l');
    // Nothing more goes out once destroyed.
    h.compositor.render();
    h.compositor.write('x');
    expect(await h.settle()).toBe('');
    h.term.dispose();
  });

  test('write passes a raw sequence out between frames', async () => {
    const h = harness(20, 5);
    await h.settle();
    h.compositor.write('\x1b]52;c;aGk=\x07');
    expect(await h.settle()).toBe('\x1b]52;c;aGk=\x07');
  });

  test('resize repaints at the new size and area() is the terminal less the tab bar and status line', async () => {
    const h = harness(30, 8);
    await h.frame(onePane(30, 6, { '0': [[0, 'before']] }));
    expect(h.compositor.area()).toEqual({ cols: 30, rows: 6 });
    h.term.resize(20, 6);
    h.compositor.resize(20, 6);
    expect(h.compositor.area()).toEqual({ cols: 20, rows: 4 });
    await h.frame({
      seq: 2,
      view: makeView(20, 4, [viewPane({ id: 1, x: 0, y: 0, cols: 20, rows: 4, focused: true })]),
      panes: { '1': { cols: 20, rows: 4, lines: { '0': [[0, 'after']] } } },
    });
    expect(h.line(1)).toBe('after');
    expect(h.line(0)).toContain(' main ');
    expect(h.line(5)).toContain('1');
  });

  test('a terminal below 12×4 shows "terminal too small" in place of the panes, and the panes again when it grows (issue 31.7)', async () => {
    const h = harness(30, 8);
    await h.frame(onePane(30, 6, { '0': [[0, 'pane-text']] }));
    h.term.resize(10, 4);
    h.compositor.resize(10, 4);
    expect(h.compositor.tooSmall()).toBe(true);
    // What a too-small client would ask for, were it asked: never less than the minimum's area.
    expect(h.compositor.area()).toEqual({ cols: 12, rows: 2 });
    await h.render();
    const small = Array.from({ length: 4 }, (_, y) => h.line(y).trim());
    expect(small).toEqual(['terminal', 'too small', '10×4, fux', 'needs 12×4']);
    expect(h.observed.cursorVisible).toBe(false);
    expect(h.compositor.paneAt(1, 1)).toBeUndefined();
    h.term.resize(30, 8);
    h.compositor.resize(30, 8);
    await h.render();
    expect(h.line(1)).toBe('pane-text');
    expect(h.line(0)).toContain(' main ');
  });

  test('a size the server refused shows as the too-small view with its reason, until it is laid out again', async () => {
    const h = harness(30, 8);
    await h.frame(onePane(30, 6, { '0': [[0, 'pane-text']] }));
    h.compositor.refused('no room for 3 panes in 30x6');
    await h.render();
    const rows = Array.from({ length: 8 }, (_, y) => h.line(y).trim()).filter(Boolean);
    expect(rows).toEqual(['terminal too small', 'for the panes: no room for 3', 'panes in 30x6']);
    h.compositor.refused(undefined);
    await h.render();
    expect(h.line(1)).toBe('pane-text');
  });

  test('paneAt maps screen cells to pane cells; borders, the tab bar and the status line are no pane', async () => {
    const h = harness(21, 7);
    await h.frame({
      seq: 1,
      reset: true,
      view: makeView(21, 5, [
        viewPane({ id: 1, x: 0, y: 0, cols: 10, rows: 5, focused: true }),
        viewPane({ id: 2, x: 11, y: 0, cols: 10, rows: 5 }),
      ]),
    });
    expect(h.compositor.paneAt(0, 1)).toEqual({ pane: 1, x: 0, y: 0 });
    expect(h.compositor.paneAt(12, 3)).toEqual({ pane: 2, x: 1, y: 2 });
    expect(h.compositor.paneAt(10, 3)).toBeUndefined();
    expect(h.compositor.paneAt(3, 0)).toBeUndefined();
    expect(h.compositor.paneAt(3, 6)).toBeUndefined();
  });
});
