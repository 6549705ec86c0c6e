import { ParseScheduler, type ParseTask } from '../../src/server/pane/parse-scheduler';
import { Turns } from './turns';

/** Time that only moves when a task says its batch took some. */
class FakeClock {
  ms = 0;
  readonly now = (): number => this.ms;
}

/**
 * A pane's pump stand-in: `batch` bytes a write, each write parsed synchronously in `cost` ms of
 * the fake clock, and ready again while bytes remain (as the pump is).
 */
class FakeTask implements ParseTask {
  queued = 0;
  constructor(
    readonly name: string,
    private readonly scheduler: ParseScheduler,
    private readonly clock: FakeClock,
    private readonly log: string[],
    private readonly batch: number,
    private readonly cost: number,
  ) {}
  receive(bytes: number): void {
    this.queued += bytes;
    this.scheduler.ready(this);
  }
  writeBatch(): void {
    this.log.push(this.name);
    this.queued -= Math.min(this.batch, this.queued);
    this.clock.ms += this.cost;
    if (this.queued > 0) this.scheduler.ready(this);
  }
}

function setup(budget = { turnMs: 4, smallBytes: 100 }): {
  clock: FakeClock;
  turns: Turns;
  log: string[];
  scheduler: ParseScheduler;
  task(name: string, batch?: number, cost?: number): FakeTask;
} {
  const clock = new FakeClock();
  const turns = new Turns();
  const log: string[] = [];
  const scheduler = new ParseScheduler(budget, clock.now, turns.schedule);
  return {
    clock,
    turns,
    log,
    scheduler,
    task: (name, batch = 1000, cost = 1) => new FakeTask(name, scheduler, clock, log, batch, cost),
  };
}

describe('the parse scheduler', () => {
  test('parses a small read at once and makes a large one wait for a turn', () => {
    const { turns, log, task } = setup();
    const echo = task('echo');
    const flood = task('flood');
    flood.receive(4096);
    echo.receive(1);
    expect(log).toEqual(['echo']);
    expect(turns.waiting).toBe(1);
    turns.step();
    expect(log).toEqual(['echo', 'flood']);
  });

  test('counts the parse time it has spent, at once and in turns alike', () => {
    const { scheduler, turns, task } = setup();
    expect(scheduler.worked).toBe(0);
    task('echo', 1000, 0.5).receive(1);
    expect(scheduler.worked).toBe(0.5);
    task('flood', 1000, 2).receive(3000);
    while (turns.waiting > 0) turns.step();
    expect(scheduler.worked).toBe(6.5);
  });

  test('serves waiting tasks one batch each, round-robin, until the turn budget is spent', () => {
    const { turns, log, task } = setup({ turnMs: 4, smallBytes: 100 });
    const floods = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => task(name, 1000, 1.5));
    for (const flood of floods) flood.receive(3000);
    turns.step(); // 1.5, 3, 4.5 ms: the budget is spent after the third
    expect(log).toEqual(['a', 'b', 'c']);
    turns.step(); // those not reached go first, then those served, in the order they were served
    expect(log.slice(3)).toEqual(['d', 'e', 'f']);
    turns.step();
    expect(log.slice(6)).toEqual(['a', 'b', 'c']);
    while (turns.waiting > 0) turns.step();
    expect(log.filter((name) => name === 'f')).toHaveLength(3);
    expect(floods.every((flood) => flood.queued === 0)).toBe(true);
  });

  test('serves a task at most once a turn, however much budget is left', () => {
    const { turns, log, task } = setup({ turnMs: 100, smallBytes: 100 });
    task('flood', 1000, 1).receive(5000);
    turns.step();
    expect(log).toEqual(['flood']);
    expect(turns.waiting).toBe(1);
  });

  test('a task whose program was sent input goes first, whatever it holds, for one batch', () => {
    const { turns, log, scheduler, task } = setup({ turnMs: 4, smallBytes: 100 });
    const floods = ['a', 'b', 'c', 'd'].map((name) => task(name, 1000, 3));
    for (const flood of floods) flood.receive(5000);
    const typed = task('typed', 1000, 3);
    typed.receive(5000); // a flooding pane, last in line
    expect(log).toEqual([]);
    scheduler.prioritize(typed);
    turns.step();
    // Ahead of the line, and it does not use up the turn's one guaranteed batch.
    expect(log).toEqual(['typed', 'a']);
    turns.step();
    expect(log.slice(2)).toEqual(['b', 'c']);
  });

  test('input makes the next read urgent even when it is large, and at once if it finds the task idle', () => {
    const { turns, log, scheduler, task } = setup();
    const typed = task('typed');
    scheduler.prioritize(typed);
    typed.receive(4096);
    expect(log).toEqual(['typed']);
    typed.receive(0); // the credit is spent: the rest waits for a turn
    expect(turns.waiting).toBe(1);
  });

  test('input sent to many flooding panes at once parses their large batches within the budget, an echo at once', () => {
    const { turns, log, scheduler, task } = setup({ turnMs: 4, smallBytes: 100 });
    const floods = Array.from({ length: 10 }, (_, i) => task(`typed${i}`, 1000, 3));
    const other = task('other', 1000, 3);
    other.receive(5000);
    // A command broadcast to ten panes: each was sent input, then its output arrives.
    for (const flood of floods) scheduler.prioritize(flood);
    for (const flood of floods) flood.receive(5000);
    // 3 ms, then 6: past the budget after the second; the rest wait, still urgent.
    expect(log).toEqual(['typed0', 'typed1']);
    const echo = task('echo', 1000, 0.25);
    echo.receive(1);
    expect(log.slice(2)).toEqual(['echo']);
    // The between-turn work (6.25 ms) leaves this turn no budget: one batch, the first in line.
    turns.step();
    expect(log.slice(3)).toEqual(['other']);
    // Then the waiting input's batches go first, two a turn (3 + 3 ms against 4), and the turn's
    // one round-robin batch after them.
    turns.step();
    expect(log.slice(4, 6)).toEqual(['typed2', 'typed3']);
    expect(log).toHaveLength(7);
    turns.step();
    expect(log.slice(7, 9)).toEqual(['typed4', 'typed5']);
    expect(log).toHaveLength(10);
  });

  test('urgent work between turns counts against the next turn, which still serves one batch', () => {
    const { turns, log, task } = setup({ turnMs: 4, smallBytes: 100 });
    const floods = ['a', 'b'].map((name) => task(name, 1000, 1));
    for (const flood of floods) flood.receive(3000);
    for (let i = 0; i < 5; i++) task(`echo${i}`, 1000, 1).receive(10);
    expect(log).toHaveLength(5); // 5 ms of echoes, more than the turn's budget
    turns.step();
    expect(log.slice(5)).toEqual(['a']);
    turns.step();
    expect(log.slice(6)).toEqual(['b', 'a']);
  });

  test('a task left with a small remainder after its batch goes first in the next turn', () => {
    const { turns, log, task } = setup({ turnMs: 1, smallBytes: 100 });
    const tail = task('tail', 1000, 5);
    const b = task('b', 1000, 5);
    const c = task('c', 1000, 5);
    tail.receive(1050);
    b.receive(5000);
    c.receive(5000);
    turns.step(); // the budget is spent after one batch; the line is now b, c, tail
    expect(log).toEqual(['tail']);
    turns.step(); // tail's 50 bytes are urgent: ahead of b, and b still gets the turn's batch
    expect(log.slice(1)).toEqual(['tail', 'b']);
    expect(tail.queued).toBe(0);
  });

  test('a forgotten task is not served', () => {
    const { turns, log, scheduler, task } = setup();
    const gone = task('gone');
    gone.receive(5000);
    scheduler.forget(gone);
    turns.step();
    expect(log).toEqual([]);
    expect(scheduler.backlog).toBe(0);
  });

  test('an echo among 40 floods is served at once, and every flood progresses', () => {
    const { turns, log, task } = setup({ turnMs: 4, smallBytes: 1024 });
    const floods = Array.from({ length: 40 }, (_, i) => task(`flood${i}`, 65536, 2));
    for (const flood of floods) flood.receive(20 * 65536);
    // Costs that binary floating point holds exactly, so the clock's sums are exact too.
    const echo = task('echo', 65536, 0.25);
    const lastServed = new Map<string, number>();
    let turnsRun = 0;
    while (turns.waiting > 0) {
      const before = log.length;
      turns.step();
      turnsRun++;
      // The budget's worth a turn (two batches of 2 ms), and no flood waits more than 40 / 2 turns.
      expect(log.length - before).toBeLessThanOrEqual(2);
      for (const name of log.slice(before)) {
        expect(turnsRun - (lastServed.get(name) ?? 0)).toBeLessThanOrEqual(20);
        lastServed.set(name, turnsRun);
      }
      if (turnsRun % 7 === 0) {
        const beforeEcho = log.length;
        echo.receive(1);
        expect(log.slice(beforeEcho)).toEqual(['echo']);
      }
    }
    // Round-robin: 40 floods of 20 batches each, two a turn.
    expect(turnsRun).toBe(400);
    expect(floods.every((flood) => flood.queued === 0)).toBe(true);
  });
});
