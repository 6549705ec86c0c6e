import type { IMarker, Terminal } from '@xterm/headless';
import type { PaneHistory } from './capture';
import { CompactionBudget } from './compaction-budget';
import { csiParamValue, type CsiParam } from './csi-param';
import { HistoryArchive } from './history-archive';
import { cutIntoPieces } from './output-pieces';
import { NormalScrollRegion } from './scroll-region';
import { styledRow } from './styled-line';

/**
 * xterm's own scrollback while compact. xterm keeps 12 bytes per cell of history whatever the
 * cell holds (2.4 KB a row at 200 columns); at this size, once full, it recycles its oldest row
 * for each new one and allocates nothing. It must exceed PIECE_ROWS, and little more is needed:
 * every row beyond a piece's worth is held twice, in xterm and in the archive (at 750 rows, 1 MB
 * more a 200-column pane than at 320, which 40 flooding panes kept as 40 MB of resident set).
 */
const COMPACT_TERMINAL_ROWS = 320;
/**
 * The most rows of history xterm holds while a pane floods: 24 MB at 200 columns, a pane's whole
 * default scrollback. A pane that keeps more goes on archiving the rows xterm is about to recycle,
 * whatever that costs: xterm holding all of the documented maximum (a million rows, 2.4 GB at 200
 * columns, and a million ArrayBuffers for the collector) made a `seq` of 1.1 M lines take 10–19 s
 * and 2 GB where it took 1.7 s and 32 MB compact (docs/benchmarks.md, SCROLLBACK).
 */
export const FLOOD_TERMINAL_ROWS = 10_000;
/**
 * Output goes to xterm in pieces that can scroll at most this many rows (`cutIntoPieces`), with a
 * look at the history after each; the archive stays this many rows ahead of xterm's trimming.
 */
const PIECE_ROWS = 256;
/** Rows archived at once beyond what the next piece needs, so that archiving runs in batches. */
const ARCHIVE_BATCH_ROWS = 256;
/**
 * Rows of history a flood leaves in xterm when it is compacted again, and the rows per step. A
 * step of 1000 rows ran 10–17 ms on a loaded machine (the longest single task of B3's server after
 * its start); 250 keep a step near 3 ms, so another pane's echo waits for no more than that.
 */
const REST_TERMINAL_ROWS = 250;
const REST_STEP_ROWS = 250;
/** How often a flooded pane looks at whether its output has paused. */
const QUIET_CHECK_MS = 100;
/** Output below this much per check counts as paused (160 KB/s: some hundred long lines a second). */
const QUIET_BYTES = 16 * 1024;
/**
 * Checks in a row that must find the output paused (a second) before a flooded pane is compacted.
 * A flood whose producer is merely descheduled for a moment (a loaded machine) must not be
 * compacted: compacting archives xterm's rows and trims its buffer, and when the flood goes on
 * xterm grows back to the pane's limit one freshly allocated row per line feed, which measured as
 * much again as the parse of a `seq` flood (B1) when it happened a few times a second, and made
 * the longest tasks of B3's flooded server (compaction, row allocation and the collections both
 * bring). Three checks (300 ms) still let that happen under load.
 */
const QUIET_CHECKS = 10;
/**
 * Archiving may take three quarters of the time that passes (parsing output or idle), saved up
 * to a burst that covers a command's worth of output at once. Measured per 200-cell row: a plain
 * row archives in ~0.2 µs for a `seq` line (only the cells written are read) and ~0.7 µs for a
 * 150-character one, against ~1 and ~10 µs to parse them; a row styled to the margin renders cell
 * by cell, some µs more than its parse. Plain floods stay compact (with room to spare on a loaded
 * machine), while one of rows styled to the margin floods after some 20 ms of archiving.
 */
const BUDGET_SHARE = 0.75;
const BUDGET_BURST_MS = 20;

/**
 * - `off`: the limit fits in xterm's compact size; xterm keeps all of it, as it always did.
 * - `compact`: xterm holds COMPACT_TERMINAL_ROWS; each row is archived before xterm recycles it.
 * - `flood`: output outran the budget; xterm holds up to FLOOD_TERMINAL_ROWS (the pane's limit,
 *   if smaller) and archives only the rows it would recycle, until the output pauses and the pane
 *   is compacted again.
 */
type Mode = 'off' | 'compact' | 'flood';

/**
 * A pane's scrollback kept compact: all but the newest rows of history live in a `HistoryArchive`
 * (each row rendered with its attributes and packed as UTF-8, about a byte per character of a
 * plain line) instead of in xterm.
 *
 * While compact (and while flooding past FLOOD_TERMINAL_ROWS), the oldest rows xterm holds are also
 * in the archive; a marker (which xterm keeps in place as it trims and inserts rows) points at the
 * first row that is not. Before each piece
 * of output is parsed, enough rows past the marker are archived that the piece cannot make xterm
 * recycle a row the archive lacks. xterm is left to trim itself, rather than trimmed each time:
 * a row it recycles costs nothing, while a row trimmed away is replaced by a new one, and that
 * garbage (2.4 KB a row) piles up until a full collection and stays in the RSS (measured: 15 MB
 * for 10 000 rows).
 *
 * Archiving a row styled to the margin costs more than parsing it, so archiving every row of a
 * flood of them would more than double its cost. When the budget runs out the pane floods instead:
 * xterm's own limit is raised to `floodRows`, and archiving waits until xterm is that full. When
 * that is the pane's whole limit, whatever xterm then trims lies beyond it, and once xterm holds
 * that many rows the archive, older still, is dropped. A pane that keeps more archives ahead of
 * xterm's trimming from there on, as a compact one does but whatever the budget says: xterm
 * holding a million rows costs more than archiving them. When the output pauses, the oldest rows
 * are archived and xterm is made compact again.
 *
 * Changing xterm's scrollback option is the only public way to trim or grow it, and xterm applies
 * it as a resize to the same size: that also resets the scroll regions, moves a cursor waiting to
 * wrap at the right margin back onto the margin, and re-seeds tab stops past the last one. A pane
 * changes the option therefore only on the normal screen, outside a region the program set
 * (apt keeps a progress bar that way) and with no wrap pending, or just before a resize, which
 * resets all of that anyway.
 *
 * Archived rows keep the width they were written at: xterm reflows its own rows when the width
 * changes, the archive does not (nor does tmux's history).
 */
export class Scrollback {
  private mode: Mode;
  private readonly archive: HistoryArchive;
  /** xterm's limit while flooding. */
  private readonly floodRows: number;
  private readonly region: NormalScrollRegion;
  private readonly budget = new CompactionBudget(BUDGET_SHARE, BUDGET_BURST_MS);
  /** The first of xterm's rows that the archive does not hold (none: row 0); only while archiving. */
  private boundary: IMarker | undefined;
  /** Pieces handed to xterm and not yet parsed. */
  private piecesInFlight = 0;
  /** Until when time has been counted towards the budget. */
  private clockMark = performance.now();
  private quietCheck: ReturnType<typeof setTimeout> | undefined;
  private restStep: ReturnType<typeof setImmediate> | undefined;
  private bytesSinceCheck = 0;
  private quietChecks = 0;
  private disposed = false;

  /** The scrollback xterm is created with for a pane that keeps `limit` rows of history. */
  static terminalLimit(limit: number): number {
    return Math.min(limit, COMPACT_TERMINAL_ROWS);
  }

  constructor(
    private readonly terminal: Terminal,
    /** Rows of history the pane keeps in all (its `scrollback`). */
    private readonly limit: number,
  ) {
    this.mode = limit > COMPACT_TERMINAL_ROWS ? 'compact' : 'off';
    this.floodRows = Math.min(limit, FLOOD_TERMINAL_ROWS);
    this.archive = new HistoryArchive(this.mode === 'off' ? 0 : limit);
    this.region = new NormalScrollRegion(terminal);
    if (this.mode === 'off') return;
    // ED 3 and DECSED 3 erase the history of the screen in use (`clear` sends it) and RIS erases
    // everything, so the archive goes too. Each handler returns false: xterm's own still runs.
    const erasedInDisplay = (params: CsiParam[]): boolean => {
      if (csiParamValue(params[0]) === 3 && this.onNormalScreen()) this.forgetHistory();
      return false;
    };
    terminal.parser.registerCsiHandler({ final: 'J' }, erasedInDisplay);
    terminal.parser.registerCsiHandler({ prefix: '?', final: 'J' }, erasedInDisplay);
    terminal.parser.registerEscHandler({ final: 'c' }, () => {
      this.forgetHistory();
      return false;
    });
    terminal.parser.registerCsiHandler({ final: 'b' }, (params) => {
      this.repeating(csiParamValue(params[0]) || 1);
      return false;
    });
  }

  /** Hand `bytes` to xterm; `parsed` is called once all of them are parsed. */
  write(bytes: Uint8Array, parsed: () => void): void {
    if (this.mode === 'off') {
      this.parseNow(bytes, parsed);
      return;
    }
    // Fewer bytes than PIECE_ROWS cannot scroll more; a flood that xterm keeps whole needs no look
    // between pieces.
    const looks = this.mode === 'compact' || this.archivesWhileFlooding();
    if (!looks || bytes.byteLength < PIECE_ROWS) {
      this.writePiece(bytes, parsed);
      return;
    }
    const pieces = cutIntoPieces(bytes, this.terminal.cols, PIECE_ROWS);
    const last = pieces.length - 1;
    for (let i = 0; i < last; i++) this.writePiece(pieces[i]!);
    this.writePiece(pieces[last]!, parsed);
  }

  /** Call before resizing the terminal. */
  beforeResize(): void {
    if (this.mode === 'off' || this.disposed) return;
    // A resize can trim xterm (fewer rows, or a narrower width wrapping rows into more) and moves
    // rows without moving markers, so the pane floods through it, with xterm holding no archived
    // row and allowed the pane's whole limit, and is compacted afterwards. The option changes this
    // takes are undone by the resize itself.
    this.dropArchivedRows(this.limit);
    this.mode = 'flood';
    this.dropArchiveIfOutgrown();
  }

  /** Call after resizing the terminal. */
  afterResize(): void {
    if (this.mode === 'off' || this.disposed) return;
    this.region.resized();
    // Back to the flood's limit, archiving first what that trims. Changing the option now, before
    // anything more is parsed, resets only what the resize just reset.
    if (this.archivesWhileFlooding()) {
      const excess = Math.max(0, this.terminal.buffer.normal.baseY - this.floodRows);
      this.archiveOldest(excess);
      this.setTerminalLimit(this.floodRows, excess);
    }
    this.dropArchiveIfOutgrown();
    this.checkForQuiet();
  }

  /** The history as a capture shows it: archived rows, then xterm's rows the archive lacks. */
  history(): PaneHistory {
    this.dropArchiveIfOutgrown();
    const firstTerminalRow = this.firstUnarchivedRow();
    const terminalRows = Math.max(0, this.terminal.buffer.normal.baseY - firstTerminalRow);
    const shown = Math.min(this.archive.length, Math.max(0, this.limit - terminalRows));
    const skipped = this.archive.length - shown;
    return {
      archivedCount: shown,
      archivedRow: (index) => this.archive.at(skipped + index),
      firstTerminalRow,
    };
  }

  /** Rows of history kept above the normal screen, in the archive and in xterm. */
  rows(): number {
    const history = this.history();
    return history.archivedCount + this.terminal.buffer.normal.baseY - history.firstTerminalRow;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.quietCheck);
    clearImmediate(this.restStep);
    this.boundary?.dispose();
    this.archive.clear();
  }

  private writePiece(piece: Uint8Array, parsed?: () => void): void {
    this.piecesInFlight++;
    this.parseNow(piece, () => {
      this.piecesInFlight--;
      this.pieceParsed(piece.byteLength);
      parsed?.();
    });
  }

  /**
   * Write to xterm so that it parses at once, when nothing else is waiting in its write buffer.
   * A write to an empty buffer otherwise waits for a setTimeout (≥ 1 ms, and more under load),
   * which a flood paid once per batch; xterm skips that timer for the first write after user
   * input, and an empty input is the public way to say so (it sends nothing to the program).
   */
  private parseNow(bytes: Uint8Array, parsed: () => void): void {
    this.terminal.input('', true);
    this.terminal.write(bytes, parsed);
  }

  private pieceParsed(bytes: number): void {
    if (this.disposed) return;
    const now = performance.now();
    this.budget.earn(now - this.clockMark);
    this.clockMark = now;
    this.bytesSinceCheck += bytes;
    if (this.mode === 'compact') {
      this.archiveAhead(PIECE_ROWS, true);
      return;
    }
    if (this.archivesWhileFlooding()) this.archiveAhead(PIECE_ROWS, false);
    this.flooded();
  }

  /**
   * Make sure the next `rows` rows to scroll cannot make xterm recycle a row that is not archived.
   * Over budget (`budgeted`), the pane floods instead, unless the option change that takes would
   * disturb the program: then it archives anyway.
   */
  private archiveAhead(rows: number, budgeted: boolean): void {
    // The normal screen does not scroll while the alternate one is in use.
    if (!this.onNormalScreen()) return;
    const buffer = this.terminal.buffer.normal;
    const history = buffer.baseY;
    // The rows xterm keeps before it recycles one.
    const kept = this.mode === 'compact' ? COMPACT_TERMINAL_ROWS : this.floodRows;
    const needed = Math.min(history - 1, Math.max(0, history + rows - kept));
    const archived = this.firstUnarchivedRow();
    if (archived >= needed) return;
    if (budgeted && !this.budget.available && this.optionChangeIsHarmless()) {
      this.flood();
      return;
    }
    // Stop short of the newest row of history so the marker stays off the screen, where erasing
    // and deleting lines would dispose of it.
    const target = Math.min(history - 1, needed + ARCHIVE_BATCH_ROWS);
    const started = performance.now();
    const cell = buffer.getNullCell();
    for (let y = archived; y < target; y++) {
      styledRow(buffer.getLine(y)!, this.terminal.cols, cell, this.archive);
    }
    this.boundary?.dispose();
    this.boundary = this.terminal.registerMarker(target - buffer.baseY - buffer.cursorY);
    const finished = performance.now();
    this.budget.spend(finished - started);
    this.clockMark = finished;
  }

  /**
   * A REP can scroll more rows than its few bytes, which the piece it came in did not count:
   * archive ahead of all it may write as well as the rest of the piece. When that is more than
   * xterm's compact rows can hold, the pane floods first (xterm then keeps the pane's whole limit),
   * so no row is recycled before it is archived; only when the option change that takes would
   * disturb the program (a region, a pending wrap) does it archive as far as xterm's rows go, and
   * such a REP loses what it writes beyond them.
   */
  private repeating(count: number): void {
    if (this.mode === 'off' || (this.mode === 'flood' && !this.archivesWhileFlooding())) return;
    const { cols } = this.terminal;
    const rows = Math.ceil((this.terminal.buffer.normal.cursorX + count) / cols) + PIECE_ROWS;
    if (this.mode === 'compact' && rows >= COMPACT_TERMINAL_ROWS && this.optionChangeIsHarmless()) {
      this.flood();
      return;
    }
    this.archiveAhead(rows, false);
  }

  /** Leave compact mode: drop the rows xterm holds twice and raise its limit to `floodRows`. */
  private flood(): void {
    this.dropArchivedRows(this.floodRows);
    this.mode = 'flood';
    this.checkForQuiet();
  }

  /** Whether a flooding xterm may trim rows that the pane still keeps. */
  private archivesWhileFlooding(): boolean {
    return this.floodRows < this.limit;
  }

  private flooded(): void {
    this.dropArchiveIfOutgrown();
    this.checkForQuiet();
  }

  /**
   * When flooding, xterm trims only once it holds `limit` rows of history, and those are then the
   * newest `limit`: nothing the archive holds may still be shown. Rows leave xterm's history only
   * by trimming, a resize or an erase, so a look after every piece and around resizes catches it.
   */
  private dropArchiveIfOutgrown(): void {
    if (this.mode === 'flood' && this.archive.length > 0 && this.terminal.buffer.normal.baseY >= this.limit) {
      this.archive.clear();
    }
  }

  private checkForQuiet(): void {
    if (this.mode !== 'flood' || this.quietCheck !== undefined || this.restStep !== undefined) return;
    this.quietCheck = setTimeout(() => {
      this.quietCheck = undefined;
      this.quietChecks = this.bytesSinceCheck >= QUIET_BYTES ? 0 : this.quietChecks + 1;
      this.bytesSinceCheck = 0;
      if (this.quietChecks < QUIET_CHECKS) {
        this.checkForQuiet();
        return;
      }
      this.quietChecks = 0;
      this.compactAtRest();
    }, QUIET_CHECK_MS);
  }

  /**
   * Archive a flooded pane's oldest rows a step at a time, yielding between steps, and make it
   * compact once REST_TERMINAL_ROWS are left. It waits while output is being parsed (it would
   * arrive uncut) or an option change would disturb the program (another screen, a region, a
   * pending wrap): the next output starts the quiet checks again.
   */
  private compactAtRest(): void {
    if (this.disposed || this.mode !== 'flood') return;
    if (this.piecesInFlight > 0 || !this.optionChangeIsHarmless()) return;
    this.dropArchiveIfOutgrown();
    this.dropArchivedRows(this.floodRows);
    const buffer = this.terminal.buffer.normal;
    const count = Math.max(0, Math.min(REST_STEP_ROWS, buffer.baseY - REST_TERMINAL_ROWS));
    this.archiveOldest(count);
    if (buffer.baseY - count > REST_TERMINAL_ROWS) {
      this.setTerminalLimit(this.floodRows, count);
      this.restStep = setImmediate(() => {
        this.restStep = undefined;
        this.compactAtRest();
      });
      return;
    }
    this.setTerminalLimit(COMPACT_TERMINAL_ROWS, count);
    this.mode = 'compact';
  }

  /** Trim xterm's oldest `drop` rows of history, then set its limit to `rows`. */
  private setTerminalLimit(rows: number, drop: number): void {
    const { options, buffer } = this.terminal;
    // A limit `drop` rows below what xterm holds trims exactly those rows.
    if (drop > 0) options.scrollback = buffer.normal.length - this.terminal.rows - drop;
    options.scrollback = rows;
  }

  /** Archive xterm's oldest `count` rows of history, which must all be rows the archive lacks. */
  private archiveOldest(count: number): void {
    const buffer = this.terminal.buffer.normal;
    const cell = buffer.getNullCell();
    for (let y = 0; y < count; y++) {
      styledRow(buffer.getLine(y)!, this.terminal.cols, cell, this.archive);
    }
  }

  /** Trim the rows xterm holds that the archive holds too, and set xterm's limit to `rows`. */
  private dropArchivedRows(rows: number): void {
    const archived = this.firstUnarchivedRow();
    this.boundary?.dispose();
    this.boundary = undefined;
    this.setTerminalLimit(rows, archived);
  }

  private firstUnarchivedRow(): number {
    const line = this.boundary?.line ?? 0;
    return line > 0 ? line : 0;
  }

  private forgetHistory(): void {
    this.archive.clear();
    this.boundary?.dispose();
    this.boundary = undefined;
  }

  private optionChangeIsHarmless(): boolean {
    return (
      this.onNormalScreen() &&
      this.region.isWholeScreen &&
      this.terminal.buffer.normal.cursorX < this.terminal.cols
    );
  }

  private onNormalScreen(): boolean {
    return this.terminal.buffer.active.type === 'normal';
  }
}
