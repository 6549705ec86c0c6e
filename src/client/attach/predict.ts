/**
 * Local echo for a slow link, after mosh: printable characters typed into the focused pane are
 * shown at once where the program would echo them, marked (underlined) until the server's screen
 * confirms them, and dropped the moment it disagrees. Pure: the caller feeds it what was typed,
 * the server's cells and cursor as frames arrive, and the round trips it measured.
 */

export interface PredictedCell {
  x: number;
  y: number;
  ch: string;
}

export interface PaneScreen {
  /** The character at a cell of the pane as the server last drew it (' ' for blank). */
  charAt(x: number, y: number): string;
  cursor: { x: number; y: number };
  cols: number;
}

export type PredictMode = 'auto' | 'always' | 'never';

/** Round trips above this turn prediction on in `auto` mode (mosh's threshold is similar). */
export const SLOW_RTT_MS = 30;
/** And below this turn it off again, so a link near the threshold does not flap. */
export const FAST_RTT_MS = 20;
/** A prediction the server has not confirmed by this long after a round trip is taken as wrong. */
const GRACE_MS = 250;

interface Pending extends PredictedCell {
  at: number;
}

export class Predictor {
  private pending: Pending[] = [];
  private srtt: number | undefined;
  private slow = false;
  /** After a wrong guess, nothing is predicted until the server has caught up with the input. */
  private suspended = false;
  private pane: number | undefined;

  constructor(
    private readonly mode: PredictMode,
    private readonly now: () => number = Date.now,
  ) {}

  /** A measured round trip (keys sent → the frame that redrew their pane); smoothed as TCP does. */
  roundTrip(ms: number): void {
    this.srtt = this.srtt === undefined ? ms : this.srtt * 0.875 + ms * 0.125;
    if (!this.slow && this.srtt > SLOW_RTT_MS) this.slow = true;
    else if (this.slow && this.srtt < FAST_RTT_MS) this.slow = false;
  }

  get active(): boolean {
    return this.mode === 'always' || (this.mode === 'auto' && this.slow);
  }

  /**
   * Input is about to go to `pane`. Printable text on one line is predicted from the cursor on;
   * anything else (Enter, control keys, escape sequences) cannot be, and what was predicted so far
   * waits for the server.
   */
  typed(pane: number, data: string, screen: PaneScreen): void {
    if (!this.active) return;
    if (pane !== this.pane) {
      this.pending = [];
      this.pane = pane;
    }
    if (this.suspended || !isPrintable(data)) {
      if (!isPrintable(data)) this.suspended = true;
      return;
    }
    const last = this.pending[this.pending.length - 1];
    let x = last ? last.x + 1 : screen.cursor.x;
    const y = last ? last.y : screen.cursor.y;
    for (const ch of data) {
      if (x >= screen.cols) break; // a wrap is the program's business
      this.pending.push({ x, y, ch, at: this.now() });
      x++;
    }
  }

  /**
   * The server's screen of the pane changed: drop what it confirms, and everything once it shows
   * something else where a guess was (or a guess outlives its grace).
   */
  update(pane: number, screen: PaneScreen): void {
    if (pane !== this.pane) return;
    const grace = this.grace();
    const now = this.now();
    const keep: Pending[] = [];
    for (const p of this.pending) {
      const shown = screen.charAt(p.x, p.y);
      if (shown === p.ch) continue; // confirmed
      const passed = screen.cursor.y > p.y || (screen.cursor.y === p.y && screen.cursor.x > p.x);
      if (passed || now - p.at > grace) {
        // Wrong: the echo went elsewhere (a password prompt, a program with its own editing).
        this.pending = [];
        this.suspended = true;
        return;
      }
      keep.push(p);
    }
    this.pending = keep;
    if (this.pending.length === 0) this.suspended = false;
  }

  /**
   * When the oldest guess runs out of grace: the caller calls `update` then, because a program
   * that never echoes sends no frame that would.
   */
  deadline(): number | undefined {
    const first = this.pending[0];
    return first === undefined ? undefined : first.at + this.grace();
  }

  private grace(): number {
    return (this.srtt ?? 0) * 2 + GRACE_MS;
  }

  /** What to draw over the pane now, and where its cursor should show. */
  overlay(pane: number): { cells: PredictedCell[]; cursor: { x: number; y: number } } | undefined {
    if (pane !== this.pane || this.pending.length === 0 || !this.active) return undefined;
    const last = this.pending[this.pending.length - 1]!;
    return {
      cells: this.pending.map(({ x, y, ch }) => ({ x, y, ch })),
      cursor: { x: last.x + 1, y: last.y },
    };
  }
}

/**
 * Plain printable text that is one cell per character: no control characters or escape
 * sequences, and nothing past Latin (where widths and combining marks make a guess unsafe).
 */
function isPrintable(data: string): boolean {
  if (data.length === 0) return false;
  for (const ch of data) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c >= 0x300) return false;
  }
  return true;
}

/** The mode from `FUX_PREDICT` (auto, always, never); auto unless set. */
export function predictModeFrom(env: Record<string, string | undefined>): PredictMode {
  const v = env.FUX_PREDICT;
  return v === 'always' || v === 'never' ? v : 'auto';
}
