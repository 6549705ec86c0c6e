/** Runs `task` on a later turn of the event loop, after pending I/O (setImmediate; tests step it by hand). */
export type TurnScheduler = (task: () => void) => void;

/** Milliseconds from some fixed origin (performance.now; tests advance it by hand). */
export type Clock = () => number;

/** A pane's output waiting to be parsed: the scheduler lets it write one batch at a time. */
export interface ParseTask {
  /** Bytes received and not yet handed to the parser. */
  readonly queued: number;
  /** Hand the next batch to the parser. Called only while the task is not parsing a batch already. */
  writeBatch(): void;
}

export interface ParseBudget {
  /** Parse time one turn of the event loop may spend on batches that are not urgent. */
  turnMs: number;
  /** A task with at most this much queued is urgent: a keystroke's echo, a prompt, a redraw. */
  smallBytes: number;
}

/**
 * The server is one event loop, and a parser write runs to its end without yielding, so a pane's
 * echo waits behind whatever output of the other panes is parsed before it. This shares parse time
 * between panes so that the wait stays short however many of them flood:
 *
 * - **Urgent first.** A task with little queued (an echo, a prompt) or whose program was just sent
 *   input is parsed at once when its output arrives, and first in a turn when it had to wait.
 *   Input buys one batch of priority, so a key typed into a flooding pane cannot starve the others.
 *   A small batch is always cheap; a large one bought by input is parsed at once only while the
 *   urgent work since the last turn is within a turn's budget, then first in the turns after, in
 *   the same budget. So input sent to many flooding panes at once (a command broadcast to them,
 *   a script starting its agents) does not hold the event loop while each parses a batch, and an
 *   echo elsewhere still gets through between them.
 * - **A budget per turn for the rest.** Tasks with more queued wait for a turn of the event loop
 *   and are served one batch each, round-robin, until the turn's budget is spent; whoever was not
 *   reached goes first next turn. Urgent work done between turns counts against the next turn's
 *   budget, and every turn serves at least one batch, so a flood always makes progress.
 *
 * Between two turns the event loop polls: requests, other panes' reads and their echoes are served
 * after at most a turn's budget plus one batch. A task that is not served keeps its bytes queued;
 * its pump pauses the pty past its high-water mark, so the flooding program blocks in the kernel
 * instead of the server buffering without bound.
 */
export class ParseScheduler {
  /** Tasks waiting for a turn, in the order they are served (a Set keeps insertion order). */
  private readonly waiting = new Set<ParseTask>();
  /** Tasks whose program was sent input since their last batch. */
  private readonly prioritized = new Set<ParseTask>();
  private turnScheduled = false;
  private inTurn = false;
  /** Parse time spent on urgent tasks since the last turn. */
  private spentBetweenTurns = 0;
  private spentInAll = 0;

  constructor(
    private readonly budget: ParseBudget,
    private readonly clock: Clock,
    private readonly nextTurn: TurnScheduler,
  ) {}

  /** Tasks waiting for a turn. */
  get backlog(): number {
    return this.waiting.size;
  }

  /** Parse time spent in all since the scheduler started, in ms: how busy output keeps the server. */
  get worked(): number {
    return this.spentInAll;
  }

  /** `task` has bytes queued and no batch in flight: it is parsed now if urgent, else in a turn. */
  ready(task: ParseTask): void {
    if (this.waiting.has(task)) return;
    if (
      !this.inTurn &&
      (this.small(task) || (this.prioritized.has(task) && this.spentBetweenTurns < this.budget.turnMs))
    ) {
      this.spentBetweenTurns += this.serve(task);
      return;
    }
    this.waiting.add(task);
    this.scheduleTurn();
  }

  /** `task`'s program was sent input: its next batch is urgent, whatever its size. */
  prioritize(task: ParseTask): void {
    this.prioritized.add(task);
  }

  /** `task` is gone (its pane disposed): never serve it again. */
  forget(task: ParseTask): void {
    this.waiting.delete(task);
    this.prioritized.delete(task);
  }

  private urgent(task: ParseTask): boolean {
    return this.prioritized.has(task) || this.small(task);
  }

  private small(task: ParseTask): boolean {
    return task.queued <= this.budget.smallBytes;
  }

  /** Write one batch of `task`; returns the time that took (the synchronous part of parsing). */
  private serve(task: ParseTask): number {
    this.prioritized.delete(task);
    const start = this.clock();
    task.writeBatch();
    const spent = this.clock() - start;
    this.spentInAll += spent;
    return spent;
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    this.nextTurn(() => this.turn());
  }

  private turn(): void {
    this.turnScheduled = false;
    this.inTurn = true;
    const budget = this.budget.turnMs - this.spentBetweenTurns;
    this.spentBetweenTurns = 0;
    // A snapshot: a task served here and ready again joins the end of the line, for the next turn.
    const line = [...this.waiting];
    const served = new Set<ParseTask>();
    let spent = 0;
    for (const task of line) {
      if (!this.urgent(task)) continue;
      // A large batch bought by input waits, still first, for a turn with budget left.
      if (!this.small(task) && spent >= budget) continue;
      this.waiting.delete(task);
      served.add(task);
      spent += this.serve(task);
    }
    let servedOne = false;
    for (const task of line) {
      // Skip a task served above (it may be waiting again, at the end) or forgotten meanwhile.
      if (served.has(task) || !this.waiting.has(task)) continue;
      if (servedOne && spent >= budget) break;
      this.waiting.delete(task);
      served.add(task);
      spent += this.serve(task);
      servedOne = true;
    }
    this.inTurn = false;
    if (this.waiting.size > 0) this.scheduleTurn();
  }
}

/**
 * The budget the server's panes share. 2 ms of batches a turn: a keystroke's echo waits about two
 * turns (its request, then the echo's read), each this budget plus one batch (16 KiB of
 * 100-character lines parses in about half a millisecond, 4096 short lines in about 4). Against
 * 4 ms, B10's echo p99 fell from 56 to 33 ms at 10 panes and from 130 to 114 ms at 40, with the
 * same total time (one run each, back to back, load 1.5); a single flood is still served one batch
 * every turn. 1 KiB: an echo, a prompt or a spinner's redraw, where a flood's pty reads are ~4 KiB
 * each.
 */
export const PANE_PARSE_BUDGET: ParseBudget = { turnMs: 2, smallBytes: 1024 };

/** The one scheduler all panes of this server share (the server is one event loop). */
export const paneParseScheduler = new ParseScheduler(
  PANE_PARSE_BUDGET,
  () => performance.now(),
  (task) => void setImmediate(task),
);
