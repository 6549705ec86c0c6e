/**
 * Skipping what a terminal would scroll away. A run of plain text (printable ASCII, CR, LF, read
 * in the parser's ground state) only prints, returns and feeds lines: it sets no mode, title or
 * colour. Once such a run has fed more lines than the screen and its scrollback hold, nothing
 * from before those lines is left, so the screen afterwards is the same whether the terminal
 * parsed the whole run or only its end, as long as that end starts at the same column. Starting
 * it at a CR (which sends the cursor to column 0 whatever came before) gives exactly that.
 *
 * How many line feeds are enough: the cursor may start anywhere, so the first `rows - 1` feeds
 * may only move it down, over old lines that they do not clear; after that each feed scrolls one
 * line, and `rows + scrollback` scrolls push every old line out. Lines that wrap only add scrolls.
 * That holds only while the scroll region is the whole screen: inside a smaller region lines
 * scroll out of the region but not into the scrollback, and the rows outside it stay.
 */

const CR = 0x0d;
const LF = 0x0a;

/** Line feeds a plain run must still contain after a cut for the screen to come out the same. */
export function lineFeedsToKeep(rows: number, scrollback: number): number {
  return 2 * rows - 1 + scrollback;
}

/**
 * The part of a plain run a terminal must parse to end in the same state as after the whole run:
 * from the last CR that still has `keepLineFeeds` line feeds after it, or the whole run when
 * there is no such CR.
 */
export function trimPlainRun(run: Buffer, keepLineFeeds: number): Buffer {
  let position = run.length;
  for (let feeds = 0; feeds < keepLineFeeds; feeds++) {
    position = run.lastIndexOf(LF, position - 1);
    if (position <= 0) return run;
  }
  const cut = run.lastIndexOf(CR, position - 1);
  return cut <= 0 ? run : run.subarray(cut);
}
