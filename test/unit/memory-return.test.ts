import { MemoryReturn, type MemoryReturnSettings } from '../../src/server/memory/memory-return';

const SETTINGS: MemoryReturnSettings = { quietMs: 500, quietWorkMs: 25 };

/** The parse-work counter, the timers and the releases of one MemoryReturn, stepped by hand. */
function setup(): {
  returner: MemoryReturn;
  parse(ms: number): void;
  /** Fire the pending timer; false if none was pending. */
  tick(): boolean;
  pending(): number;
  releases: number[];
} {
  let work = 0;
  const timers: Array<() => void> = [];
  const releases: number[] = [];
  const returner = new MemoryReturn(
    {
      work: () => work,
      after: (ms, task) => {
        expect(ms).toBe(SETTINGS.quietMs);
        timers.push(task);
      },
      release: () => releases.push(work),
    },
    SETTINGS,
  );
  return {
    returner,
    parse: (ms) => (work += ms),
    tick: () => {
      const task = timers.shift();
      task?.();
      return task !== undefined;
    },
    pending: () => timers.length,
    releases,
  };
}

describe('the memory return', () => {
  test('a closed pane brings a return once parsing has been quiet for a while', () => {
    const { returner, tick, releases } = setup();
    returner.freed();
    expect(releases).toEqual([]);
    expect(tick()).toBe(true);
    expect(releases).toEqual([0]);
    expect(tick()).toBe(false);
  });

  test('waits while output is still being parsed, and counts a spinner as quiet', () => {
    const { returner, parse, tick, releases } = setup();
    returner.freed();
    parse(100); // a flood still running
    tick();
    expect(releases).toEqual([]);
    parse(20); // a spinner's redraws and an echo: under quietWorkMs
    tick();
    expect(releases).toEqual([120]);
  });

  test('panes closed while one return is pending make one return; a close after it, another', () => {
    const { returner, parse, tick, pending, releases } = setup();
    returner.freed();
    returner.freed();
    parse(2000);
    returner.freed();
    expect(pending()).toBe(1);
    while (tick());
    expect(releases).toEqual([2000]);
    returner.freed();
    while (tick());
    expect(releases).toEqual([2000, 2000]);
  });
});
