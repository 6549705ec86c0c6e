import type { AttachFrame } from '../../../src/protocol/attach';
import { Harness, look, makeView, textRows, viewPane } from './harness';

const harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.dispose();
});

const cursorAt = (x: number, y: number) => ({ x, y, visible: true, shape: 'block', blink: false }) as const;

/** Two panes side by side in a 41 × 6 area; the right one (id 2, at x 21) is focused and shows a prompt. */
function twoPanes(): AttachFrame {
  return {
    seq: 1,
    reset: true,
    view: makeView(41, 6, [
      viewPane({ id: 1, x: 0, y: 0, cols: 20, rows: 6 }),
      viewPane({ id: 2, x: 21, y: 0, cols: 20, rows: 6, focused: true }),
    ]),
    styles: { '1': '38;2;10;200;30;48;5;17' },
    panes: {
      '1': { cols: 20, rows: 6, cursor: cursorAt(0, 0) },
      '2': {
        cols: 20,
        rows: 6,
        lines: {
          '1': [
            [0, '$ '],
            [1, 'gre'],
          ],
        },
        cursor: cursorAt(2, 1),
      },
    },
  };
}

function harness(): Harness {
  const h = new Harness(41, 8);
  harnesses.push(h);
  return h;
}

describe('Compositor: predicted local echo', () => {
  test('predicted characters show over the pane’s cells, underlined in the cells’ colours, with the cursor after them', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(2, {
      cells: [
        { x: 2, y: 1, ch: 'l' },
        { x: 3, y: 1, ch: 's' },
        { x: 5, y: 1, ch: 'x' },
      ],
      cursor: { x: 6, y: 1 },
    });
    await h.render();
    // Pane 2's column 0 is screen column 21; its row 0 is screen row 1.
    expect(h.line(2).slice(21)).toBe('$ lsex');
    expect(look(h.cell(23, 2))).toEqual({ fg: 'rgb(10,200,30)', bg: '256:17', attrs: ['underline'] });
    expect(look(h.cell(26, 2))).toEqual({ fg: 'default', bg: 'default', attrs: ['underline'] });
    expect(look(h.cell(25, 2))).toMatchObject({ fg: 'rgb(10,200,30)', attrs: [] });
    expect(h.cursor).toEqual({ x: 27, y: 2 });
  });

  test('clearing the prediction shows the server’s cells and cursor again', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(2, { cells: [{ x: 2, y: 1, ch: 'l' }], cursor: { x: 3, y: 1 } });
    await h.render();
    h.compositor.setPrediction(2, undefined);
    await h.render();
    expect(h.line(2).slice(21)).toBe('$ gre');
    expect(look(h.cell(23, 2)).attrs).toEqual([]);
    expect(h.cursor).toEqual({ x: 23, y: 2 });
  });

  test('a prediction stays drawn over rows the server sends meanwhile, until it is cleared', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(2, { cells: [{ x: 2, y: 1, ch: 'l' }], cursor: { x: 3, y: 1 } });
    await h.render();
    await h.frame({ seq: 2, panes: { '2': { lines: { '1': [[0, '$ l']] } } } });
    expect(look(h.cell(23, 2)).attrs).toEqual(['underline']);
    h.compositor.setPrediction(2, undefined);
    await h.render();
    expect(h.line(2).slice(21)).toBe('$ l');
    expect(look(h.cell(23, 2)).attrs).toEqual([]);
  });

  test('the same prediction again renders nothing', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(2, { cells: [{ x: 2, y: 1, ch: 'l' }], cursor: { x: 3, y: 1 } });
    await h.render();
    h.compositor.setPrediction(2, { cells: [{ x: 2, y: 1, ch: 'l' }], cursor: { x: 3, y: 1 } });
    expect(await h.render()).toBe('');
  });

  test('a character predicted over half of a wide glyph blanks the glyph', async () => {
    const h = harness();
    const frame = twoPanes();
    frame.panes!['2']!.lines = {
      '0': [
        [0, 'a'],
        [0, '中', 2],
        [0, 'b'],
      ],
    };
    await h.frame(frame);
    h.compositor.setPrediction(2, { cells: [{ x: 2, y: 0, ch: 'z' }], cursor: { x: 3, y: 0 } });
    await h.render();
    expect(h.line(1).slice(21)).toBe('a zb');
    expect(h.cell(22, 1).getWidth()).toBe(1);
  });

  test('a cursor predicted past the last column shows on the last column', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(2, { cells: [{ x: 19, y: 1, ch: 'q' }], cursor: { x: 20, y: 1 } });
    await h.render();
    expect(h.cell(40, 2).getChars()).toBe('q');
    expect(h.cursor).toEqual({ x: 40, y: 2 });
  });

  test('a prediction over the popup shows inside it, with the cursor there', async () => {
    const h = harness();
    const frame = twoPanes();
    frame.view = { ...frame.view!, popup: { id: 9, x: 5, y: 2, cols: 10, rows: 2, title: '' } };
    frame.panes!['9'] = { cols: 10, rows: 2, ...textRows(['> ']), cursor: cursorAt(2, 0) };
    await h.frame(frame);
    h.compositor.setPrediction(9, { cells: [{ x: 2, y: 0, ch: 'k' }], cursor: { x: 3, y: 0 } });
    await h.render();
    // The popup's rect is at area (5, 2): screen (5, 3).
    expect(h.line(3).slice(4, 16)).toBe('│> k       │');
    expect(look(h.cell(7, 3)).attrs).toEqual(['underline']);
    expect(h.cursor).toEqual({ x: 8, y: 3 });
  });

  test('a prediction for a pane that is not shown draws nothing', async () => {
    const h = harness();
    await h.frame(twoPanes());
    h.compositor.setPrediction(7, { cells: [{ x: 0, y: 0, ch: 'n' }], cursor: { x: 1, y: 0 } });
    await h.render();
    expect(h.line(1)).toBe(`${' '.repeat(20)}│`);
    expect(h.cursor).toEqual({ x: 23, y: 2 });
  });
});
