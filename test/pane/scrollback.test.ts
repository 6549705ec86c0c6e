import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/headless';
import type { Pane } from '../../src/server/pane';
import { captureTerminal } from '../../src/server/pane/capture';
import { FLOOD_TERMINAL_ROWS } from '../../src/server/pane/scrollback';
import { disposeAll, exited, screen, shPane, until, untilShown } from './pane-harness';

let dir: string;
beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'fux-scrollback-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(disposeAll);

/** Everything: more than any pane here keeps. */
const ALL = 1_000_000;

function numbers(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

/** The capture of every line the pane keeps, without attributes. */
function everything(pane: Pane): string[] {
  return pane.capture({ attrs: false, scrollback: ALL }).text.split('\n');
}

/** xterm's own rows of history: a compact pane keeps most of its history elsewhere. */
function terminalHistory(pane: Pane): number {
  return pane.terminal.buffer.normal.baseY;
}

/** Wait until the pane keeps more history than xterm holds, with xterm down to its compact size. */
function compacted(pane: Pane, historyRows: number): Promise<void> {
  return until(
    pane,
    `${historyRows} rows of history, most of them out of xterm`,
    () => terminalHistory(pane) <= 750 && everything(pane).length >= historyRows + pane.terminal.rows,
    20_000,
  );
}

function terminalFed(cols: number, rows: number, scrollback: number, data: string): Promise<Terminal> {
  const terminal = new Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return new Promise((resolve) => terminal.write(data, () => resolve(terminal)));
}

describe('the scrollback of a pane', () => {
  test('captures across the archive exactly as a terminal that kept all of it, with and without attributes', async () => {
    const lines: string[] = [];
    for (let n = 1; n <= 20_000; n++) {
      if (n % 7 === 0) lines.push(`\x1b[31m${n}\x1b[0m red`);
      else if (n % 11 === 0)
        lines.push(`\x1b[1;44m${n}\x1b[K\x1b[0m`); // a blue background to the margin
      else if (n % 13 === 0) lines.push(`${n} 中文😀 \x1b[38;2;1;2;3mrgb\x1b[0m`);
      else lines.push(String(n));
    }
    const output = `${lines.join('\n')}\n`;
    const file = path.join(dir, 'mixed.txt');
    writeFileSync(file, output);
    const pane = shPane(`cat ${file}`, { cols: 80, rows: 24, scrollback: 10_000 });
    await exited(pane);
    await compacted(pane, 10_000);

    // The terminal line discipline turns each \n into \r\n on the way out of the pty.
    const reference = await terminalFed(80, 24, 10_000, output.replace(/\n/g, '\r\n'));
    const noArchive = { archivedCount: 0, archivedRow: (): string => '', firstTerminalRow: 0 };
    for (const attrs of [false, true]) {
      const expected = captureTerminal(reference, { attrs, scrollback: 10_000 }, noArchive);
      expect(pane.capture({ attrs, scrollback: 10_000 })).toEqual(expected);
    }
    reference.dispose();

    // The last 10 000 rows of history, then the 23 rows of the screen and the empty cursor row.
    const plain = pane.capture({ attrs: false, scrollback: ALL }).text.split('\n');
    expect(plain.map((line) => line.split(' ')[0])).toEqual([
      ...numbers(20_000 - 10_000 - 23 + 1, 20_000),
      '',
    ]);
    expect(plain).toContain('19999 red');
    expect(plain).toContain('19994 中文😀 rgb');
  });

  /** The most rows of history xterm itself held while the pane printed. */
  function peakTerminalHistory(pane: Pane): () => number {
    let peak = 0;
    pane.on('output', () => (peak = Math.max(peak, terminalHistory(pane))));
    return () => peak;
  }

  /**
   * `seq` with each number on a red background to the margin: archiving such a row renders its
   * 400 cells one by one with their style, several times what parsing the line costs, so the
   * output outruns archiving and the pane floods (plain ASCII rows are archived faster than they
   * are parsed).
   */
  function colouredSeq(count: number): string {
    const esc = "$(printf '\\033')";
    return `seq 1 ${count} | sed "s/.*/${esc}[41m&${esc}[K${esc}[0m/"`;
  }

  test('keeps every line of a flood that outran archiving, before and after compacting it', async () => {
    const pane = shPane(colouredSeq(20_000), { cols: 400, rows: 10, scrollback: 100_000 });
    const peak = peakTerminalHistory(pane);
    await exited(pane);
    expect(peak()).toBeGreaterThan(750);
    expect(everything(pane)).toEqual([...numbers(1, 20_000), '']);
    await until(pane, 'compaction after the flood', () => terminalHistory(pane) <= 750);
    expect(everything(pane)).toEqual([...numbers(1, 20_000), '']);
    expect(pane.historyLines()).toBe(19_991);
  });

  test('keeps at most its scrollback of history, dropping the oldest lines first', async () => {
    // A flood past the limit: xterm itself trims, and what was archived before is outgrown.
    const pane = shPane(colouredSeq(50_000), { cols: 400, rows: 10, scrollback: 3000 });
    const peak = peakTerminalHistory(pane);
    await exited(pane);
    expect(peak()).toBe(3000);
    await compacted(pane, 3000);
    // History holds 1..49991 (the screen shows 49992..50000 and the cursor row); the newest 3000 stay.
    expect(everything(pane)).toEqual([...numbers(46992, 50000), '']);
    expect(pane.historyLines()).toBe(3000);
  });

  /**
   * 5 200 x's from one REP, which could scroll more rows than xterm keeps while compact (65 at 80
   * columns, and a piece's 256), flood the pane at once, however fast archiving is; then `after`.
   */
  const xs = 'x'.repeat(5200);
  const floodedBy = (after: string): string => `printf 'x\\033[5199b\\n'; ${after}`;

  test('keeps a flood past its flood rows out of xterm, and every line of it up to its scrollback', async () => {
    const pane = shPane(floodedBy('seq 1 20000'), { cols: 80, rows: 24, scrollback: 15_000 });
    const peak = peakTerminalHistory(pane);
    await exited(pane);
    // It flooded, and xterm held no more than a flood's rows of the 15 000 the pane keeps.
    expect(peak()).toBeGreaterThan(750);
    expect(peak()).toBeLessThanOrEqual(FLOOD_TERMINAL_ROWS);
    // The newest 15 000 rows of history (the 65 rows of x are older), the screen, the cursor row.
    expect(everything(pane)).toEqual([...numbers(4978, 20_000), '']);
    expect(pane.historyLines()).toBe(15_000);
    await compacted(pane, 15_000);
    expect(everything(pane)).toEqual([...numbers(4978, 20_000), '']);
  });

  test('keeps every line of a flood that a narrower width makes too many rows for xterm', async () => {
    // 6 000 lines of 12 characters, a row each at 80 columns and two at 6: more than a flood's
    // rows, and still a capture under 128 KiB.
    const line = (n: number): string => `l-${String(n).padStart(10, '0')}`;
    const pane = shPane(floodedBy("seq -f 'l-%010.0f' 1 6000; read _"), {
      cols: 80,
      rows: 24,
      scrollback: 50_000,
    });
    await untilShown(pane, line(6000));
    expect(terminalHistory(pane)).toBeGreaterThan(FLOOD_TERMINAL_ROWS / 2);
    pane.resize(6, 24);
    expect(terminalHistory(pane)).toBeLessThanOrEqual(FLOOD_TERMINAL_ROWS);
    const expected = xs + Array.from({ length: 6000 }, (_, i) => line(i + 1)).join('');
    const written = (): string => everything(pane).join('');
    expect(written()).toBe(expected);
    await until(pane, 'compaction after the resize', () => terminalHistory(pane) <= 750);
    expect(written()).toBe(expected);
  });

  test('keeps at most its scrollback when the output comes slowly', async () => {
    const pane = shPane('i=1; while [ $i -le 4000 ]; do echo $i; i=$((i+1)); done', {
      rows: 10,
      scrollback: 3000,
    });
    await exited(pane);
    expect(everything(pane)).toEqual([...numbers(992, 4000), '']);
  });

  test.each([
    ['ED 3', '\\033[3J'],
    ['RIS', '\\033c'],
  ])('is erased with the archive by %s', async (_, sequence) => {
    const pane = shPane(`seq 1 3000; read _; printf '${sequence}'; echo cleared; read _`, {
      rows: 10,
      scrollback: 5000,
    });
    await compacted(pane, 2900);
    pane.write('\r');
    await untilShown(pane, 'cleared');
    // Only what the screen showed at the erase (2992..3000) is left, less what scrolled off since.
    const lines = everything(pane);
    expect(lines.length).toBeLessThanOrEqual(12);
    const kept = lines.filter((line) => /^\d+$/.test(line));
    expect(kept.length).toBeLessThanOrEqual(9);
    expect(kept).toEqual(numbers(3001 - kept.length, 3000));
  });

  test('is neither changed nor shown while the alternate screen is in use', async () => {
    const pane = shPane(
      "seq 1 3000; read _; printf '\\033[?1049h'; i=0; while [ $i -lt 300 ]; do echo alt-$i; i=$((i+1)); done; " +
        "echo on-alt; read _; printf '\\033[?1049l'; echo back; read _",
      { rows: 10, scrollback: 5000 },
    );
    await compacted(pane, 2900);
    pane.write('\r');
    await untilShown(pane, 'on-alt');
    // The alternate screen has no history, as before the archive.
    expect(pane.capture({ attrs: false, scrollback: ALL }).lines).toBe(10);
    pane.write('\r');
    await untilShown(pane, 'back');
    const lines = everything(pane);
    expect(lines.slice(0, 3000)).toEqual(numbers(1, 3000));
    expect(lines.join('\n')).not.toContain('alt-');
    expect(lines).toContain('back');
  });

  test("leaves a program's scroll region working through a flood, and keeps the flood's lines", async () => {
    // A status line on the last row, below a region the flood scrolls in (apt's progress bar).
    const pane = shPane("printf '\\033[24;1Hstatus\\033[1;23r\\033[23;1H'; seq 1 200000; read _", {
      cols: 40,
      rows: 24,
      scrollback: 5000,
    });
    await untilShown(pane, '200000');
    const rows = screen(pane).split('\n');
    expect(rows[23]).toBe('status');
    expect(rows[22]).toBe('');
    expect(rows[21]).toBe('200000');
    expect(everything(pane).slice(0, -24)).toEqual(numbers(200_000 - 22 - 5000 + 1, 200_000 - 22));
  });

  test('keeps every line once through resizes, and archived lines at the width they were written', async () => {
    const pane = shPane(
      "i=1; while [ $i -le 3000 ]; do printf 'line-%025d\\n' $i; i=$((i+1)); done; read _",
      {
        cols: 40,
        rows: 10,
        scrollback: 5000,
      },
    );
    await untilShown(pane, 'line-0000000000000000000003000');
    await compacted(pane, 2990);
    const expected = Array.from({ length: 3000 }, (_, i) => `line-${String(i + 1).padStart(25, '0')}`);
    const written = (): string[] => everything(pane).filter((line) => line !== '');

    pane.resize(40, 30); // pulls history back onto the screen
    expect(written()).toEqual(expected);
    pane.resize(20, 30); // xterm reflows its rows into two; the archive's stay whole
    const narrow = written();
    const newest = expected.at(-1)!;
    expect(narrow[0]).toBe(expected[0]);
    expect(narrow.slice(-2)).toEqual([newest.slice(0, 20), newest.slice(20)]);
    expect(narrow.join('')).toBe(expected.join(''));
    // Compacted again once the output has paused: still every line once.
    await until(pane, 'compaction after the resize', () => terminalHistory(pane) <= 750);
    expect(written().join('')).toBe(expected.join(''));
  });

  test('archives ahead of a REP that writes more rows than its bytes could', async () => {
    // 700 lines, then one character repeated 20 000 times (500 rows of 40), then 100 more lines.
    const pane = shPane("seq 1 700; printf 'x\\033[19999b\\n'; seq 701 800", {
      cols: 40,
      rows: 10,
      scrollback: 5000,
    });
    await exited(pane);
    const lines = everything(pane);
    const xs = 'x'.repeat(40);
    expect(lines).toEqual([...numbers(1, 700), ...Array<string>(500).fill(xs), ...numbers(701, 800), '']);
  });
});
