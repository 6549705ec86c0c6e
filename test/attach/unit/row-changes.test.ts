import { Terminal } from '@xterm/headless';
import { RowChanges } from '../../../src/server/attach/row-changes';

/** A terminal like a pane's, fed through its parser as a pty's output is. */
function terminal(): Terminal {
  return new Terminal({ cols: 20, rows: 6, scrollback: 100, allowProposedApi: true, logLevel: 'off' });
}

function write(term: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

function changedRows(changes: RowChanges, rows: number, since: number): number[] {
  return [...Array(rows).keys()].filter((y) => changes.changedSince(y, since));
}

describe('which rows of a terminal changed', () => {
  test('a parse marks the rows it touched, and only those', async () => {
    const term = terminal();
    const changes = new RowChanges(term);
    expect(changes.precise).toBe(true);
    await write(term, '\x1b[3;1Hecho');
    const since = changes.now();
    await write(term, 'x');
    expect(changedRows(changes, 6, since)).toEqual([2]);
    // xterm marks one range per parse, from the row the cursor left to the row it wrote on.
    await write(term, '\x1b[5;1H\x1b[2K');
    expect(changedRows(changes, 6, since)).toEqual([2, 3, 4]);
    term.dispose();
  });

  test('a scroll, a resize and a switch to the alternate screen change every row', async () => {
    const term = terminal();
    const changes = new RowChanges(term);
    await write(term, '\x1b[6;1H');
    let since = changes.now();
    await write(term, '\n');
    expect(changedRows(changes, 6, since)).toHaveLength(6);
    since = changes.now();
    term.resize(20, 7);
    expect(changedRows(changes, 7, since)).toHaveLength(7);
    since = changes.now();
    await write(term, '\x1b[?1049h');
    expect(changedRows(changes, 7, since)).toHaveLength(7);
    since = changes.now();
    expect(changedRows(changes, 7, since)).toEqual([]);
    term.dispose();
  });
});
