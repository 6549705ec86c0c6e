import { Overlays } from '../../../src/client/attach/overlays';
import { InputOutbox, type InputTarget } from '../../../src/client/attach/outbox';
import { FOCUSED } from '../../../src/client/attach/controller';
import { PaintScheduler } from '../../../src/client/attach/paint';
import { PredictionDriver } from '../../../src/client/attach/prediction-driver';
import type { Overlay } from '../../../src/client/attach/render/widgets';

describe('the overlays owner', () => {
  function owner(): { overlays: Overlays; shown: Array<Overlay | undefined> } {
    const shown: Array<Overlay | undefined> = [];
    return { overlays: new Overlays((o) => shown.push(o)), shown };
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
