import { MESSAGE_MS, Overlays, type Schedule } from '../../../src/client/attach/overlays';
import { Faults } from '../../../src/client/attach/faults';
import { InputOutbox, type InputTarget } from '../../../src/client/attach/outbox';
import { FOCUSED } from '../../../src/client/attach/controller';
import { PaintScheduler } from '../../../src/client/attach/paint';
import { PredictionDriver } from '../../../src/client/attach/prediction-driver';
import type { Overlay } from '../../../src/client/attach/render/widgets';

describe('the overlays owner', () => {
  /** A clock the test moves: timers fire when `advance` passes their time. */
  class FakeClock {
    now = 0;
    private timers: Array<{ at: number; fn: () => void } | undefined> = [];
    readonly schedule: Schedule = (fn, ms) => {
      const i = this.timers.push({ at: this.now + ms, fn }) - 1;
      return () => (this.timers[i] = undefined);
    };
    get pending(): number {
      return this.timers.filter(Boolean).length;
    }
    advance(ms: number): void {
      this.now += ms;
      this.timers.forEach((t, i) => {
        if (t && t.at <= this.now) {
          this.timers[i] = undefined;
          t.fn();
        }
      });
    }
  }

  function owner(clock = new FakeClock()): { overlays: Overlays; shown: Array<Overlay | undefined> } {
    const shown: Array<Overlay | undefined> = [];
    return { overlays: new Overlays((o) => shown.push(o), clock.schedule), shown };
  }

  test('a panel the user opened shows over the link notice, which shows again when the panel closes', () => {
    const { overlays, shown } = owner();
    overlays.setLinkNotice('reconnecting… (lost)');
    overlays.setPanel({ kind: 'help', lines: ['C-a d  detach'] });
    overlays.setPanel(undefined);
    overlays.setLinkNotice(undefined);
    expect(shown).toEqual([
      { kind: 'message', text: 'reconnecting… (lost)' },
      { kind: 'help', lines: ['C-a d  detach'] },
      { kind: 'message', text: 'reconnecting… (lost)' },
      undefined,
    ]);
  });

  test('a failed call shows until anything else changes; nothing is shown twice as nothing', () => {
    const { overlays, shown } = owner();
    overlays.setPanel(undefined);
    overlays.failed('no pane 7');
    overlays.setLinkNotice(undefined);
    expect(shown).toEqual([{ kind: 'message', text: 'no pane 7' }, undefined]);
  });

  test('a failed call fades after a few seconds; a newer one starts the time again (issue 31.7)', () => {
    const clock = new FakeClock();
    const { overlays, shown } = owner(clock);
    overlays.failed('no tab 9 in workspace main');
    clock.advance(MESSAGE_MS - 1);
    expect(shown).toEqual([{ kind: 'message', text: 'no tab 9 in workspace main' }]);
    overlays.failed('no tab 8 in workspace main');
    clock.advance(MESSAGE_MS - 1);
    expect(shown.at(-1)).toEqual({ kind: 'message', text: 'no tab 8 in workspace main' });
    clock.advance(1);
    expect(shown.at(-1)).toBeUndefined();
    expect(shown).toHaveLength(3);
    expect(clock.pending).toBe(0);
  });

  test('the link notice does not fade: its source clears it', () => {
    const clock = new FakeClock();
    const { overlays, shown } = owner(clock);
    overlays.setLinkNotice('reconnecting… (lost)');
    clock.advance(MESSAGE_MS * 10);
    expect(shown).toEqual([{ kind: 'message', text: 'reconnecting… (lost)' }]);
  });

  test('a message that fades under an open panel leaves the panel showing', () => {
    const clock = new FakeClock();
    const { overlays, shown } = owner(clock);
    overlays.failed('no pane 7');
    overlays.setPanel({ kind: 'help', lines: ['C-a d  detach'] });
    clock.advance(MESSAGE_MS);
    expect(shown.at(-1)).toEqual({ kind: 'help', lines: ['C-a d  detach'] });
    expect(clock.pending).toBe(0);
  });
});

describe('faults inside the attach client', () => {
  function faults(): { f: Faults; log: string[]; shown: string[]; repaints: number[] } {
    const log: string[] = [];
    const shown: string[] = [];
    const repaints: number[] = [];
    const f = new Faults({
      log: (t) => log.push(t),
      show: (l) => shown.push(l),
      repaint: () => repaints.push(1),
    });
    return { f, log, shown, repaints };
  }

  test('an exception in a guarded handler is logged with its stack, shown in one line, and repainted over', () => {
    const { f, log, shown, repaints } = faults();
    const handler = f.guard('input', (key: string) => {
      if (key === 'boom') throw new TypeError('cannot read x');
    });
    handler('a');
    expect(log).toEqual([]);
    expect(() => handler('boom')).not.toThrow();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^input: TypeError: cannot read x\n\s+at /);
    expect(shown).toEqual(['input failed: cannot read x']);
    expect(repaints).toHaveLength(1);
  });

  test('the same fault again in a row is counted, not shown or repainted again (a failing draw would loop)', () => {
    const { f, log, shown, repaints } = faults();
    for (let i = 0; i < 5; i++) f.caught('paint', new Error('bad cell'));
    f.caught('frame', new Error('bad row'));
    expect(shown).toEqual(['paint failed: bad cell', 'frame failed: bad row']);
    expect(repaints).toHaveLength(2);
    expect(log[1]).toBe('(the fault before this one happened 4 more times)');
  });
});

describe('the input outbox', () => {
  function outbox(accept = true): {
    box: InputOutbox;
    sent: Array<[InputTarget, string, boolean]>;
    typed: string[];
  } {
    const sent: Array<[InputTarget, string, boolean]> = [];
    const typed: string[] = [];
    const box = new InputOutbox({
      send: (pane, data, binary) => {
        sent.push([pane, data, binary]);
        return accept;
      },
      typed: (data) => typed.push(data),
    });
    return { box, sent, typed };
  }

  test('one read is sent as one message per run of the same pane and kind, in order', () => {
    const { box, sent, typed } = outbox();
    box.add(FOCUSED, 'l', false);
    box.add(FOCUSED, 's', false);
    box.add(3, '\x1b[M !!', true);
    box.add(FOCUSED, '\r', false);
    expect(sent).toEqual([]);
    box.flush();
    expect(sent).toEqual([
      [FOCUSED, 'ls', false],
      [3, '\x1b[M !!', true],
      [FOCUSED, '\r', false],
    ]);
    // Only text for the focused pane is predicted.
    expect(typed).toEqual(['ls', '\r']);
    box.flush();
    expect(sent).toHaveLength(3);
  });

  test('keys with no session to take them are not predicted', () => {
    const { box, typed } = outbox(false);
    box.add(FOCUSED, 'x', false);
    box.flush();
    expect(typed).toEqual([]);
  });
});

describe('the prediction driver', () => {
  test('judges the link by the echo: keys sent until the first frame that redraws their pane', () => {
    const clock = { t: 1000 };
    const shown: Array<[number, string | undefined]> = [];
    const driver = new PredictionDriver(
      'auto',
      {
        show: (pane, p) => shown.push([pane, p?.cells.map((c) => c.ch).join('')]),
        target: () => 1,
        screenOf: () => ({ charAt: () => ' ', cursor: { x: 2, y: 0 }, cols: 40 }),
        repaint: () => undefined,
      },
      () => clock.t,
    );
    // A fast echo: nothing is predicted.
    driver.typed('a');
    clock.t += 5;
    driver.framed({
      seq: 1,
      panes: { '1': { cursor: { x: 3, y: 0, visible: true, shape: 'block', blink: false } } },
    });
    expect(shown.filter(([, cells]) => cells !== undefined)).toEqual([]);
    // Slow echoes, and a frame of another pane that does not count as one.
    for (let i = 0; i < 20; i++) {
      driver.typed('b');
      clock.t += 10;
      driver.framed({ seq: 2, panes: { '2': {} } });
      clock.t += 70;
      driver.framed({ seq: 3, panes: { '1': {} } });
    }
    driver.typed('xy');
    driver.stop();
    // Now guessed at once (after the guesses for 'b' this fake screen never confirms).
    expect(shown[shown.length - 1]![1]).toMatch(/^b*xy$/);
  });
});

describe('the prediction driver and the paint', () => {
  test('a key with no guess to show asks for no repaint; one with a guess does', () => {
    let repaints = 0;
    const deps = {
      show: () => undefined,
      target: () => 1,
      screenOf: () => ({ charAt: () => ' ', cursor: { x: 2, y: 0 }, cols: 40 }),
      repaint: () => void repaints++,
    };
    const never = new PredictionDriver('never', deps, () => 0);
    never.typed('a');
    never.stop();
    expect(repaints).toBe(0);
    const always = new PredictionDriver('always', deps, () => 0);
    always.typed('a');
    always.stop();
    expect(repaints).toBe(1);
  });
});

describe('the paint scheduler', () => {
  test('requests made while one read is handled paint once, after it and before the event loop turns', async () => {
    const order: string[] = [];
    const paint = new PaintScheduler(() => order.push('paint'));
    const turned = new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('turn');
        resolve();
      }),
    );
    // One read: three frames, each asking for a paint.
    for (const frame of ['a', 'b', 'c']) {
      order.push(frame);
      paint.request();
    }
    order.push('read done');
    await turned;
    expect(order).toEqual(['a', 'b', 'c', 'read done', 'paint', 'turn']);
  });

  test('a request after the paint paints again; none after stop', async () => {
    let paints = 0;
    const paint = new PaintScheduler(() => void paints++);
    paint.request();
    await Promise.resolve();
    paint.request();
    await Promise.resolve();
    expect(paints).toBe(2);
    paint.request();
    paint.stop();
    await Promise.resolve();
    expect(paints).toBe(2);
  });
});
