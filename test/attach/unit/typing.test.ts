import { Controller, FOCUSED, type ControllerDeps } from '../../../src/client/attach/controller';
import { InputDecoder } from '../../../src/client/attach/input/decoder';
import type { Compositor } from '../../../src/client/attach/render/compositor';
import { makeView, viewPane } from '../render/harness';

describe('plain typing in the decoder', () => {
  test('printable ASCII with nothing held back is plain text', () => {
    expect(new InputDecoder().plain(Buffer.from('ls -la ~'))).toBe('ls -la ~');
  });

  test('a control character, an escape, a non-ASCII byte or an empty read is not', () => {
    const d = new InputDecoder();
    for (const chunk of ['a\r', '\x1b[A', 'é', 'a\x7f', ''])
      expect(d.plain(Buffer.from(chunk))).toBeUndefined();
  });

  test('nothing is plain while a sequence, a paste or a split character is held back', () => {
    const clock = { t: 0 };
    const held = new InputDecoder({ now: () => clock.t });
    held.feed(Buffer.from('\x1b'));
    expect(held.plain(Buffer.from('a'))).toBeUndefined();
    // Fed as usual, the ESC and the letter are one key (M-a), which plain text would have split.
    expect(held.feed(Buffer.from('a')).map((t) => t.raw)).toEqual(['\x1ba']);

    const pasting = new InputDecoder();
    pasting.feed(Buffer.from('\x1b[200~abc'));
    expect(pasting.plain(Buffer.from('def'))).toBeUndefined();

    const split = new InputDecoder();
    split.feed(Buffer.from([0xc3]));
    expect(split.plain(Buffer.from('a'))).toBeUndefined();
  });
});

describe('plain typing in the controller', () => {
  function controller(prefix = 'C-a'): { c: Controller; sent: Array<[unknown, string]> } {
    const sent: Array<[unknown, string]> = [];
    const deps: ControllerDeps = {
      compositor: { setMode: () => undefined } as unknown as Compositor,
      send: (pane, data) => sent.push([pane, data]),
      action: () => undefined,
      history: () => Promise.reject(new Error('no history')),
      prompt: () => Promise.resolve(undefined),
      detach: () => undefined,
      redraw: () => undefined,
      modesOf: () => undefined,
      showPanel: () => undefined,
      failed: () => undefined,
    };
    const c = new Controller(deps);
    c.setView(
      makeView(80, 24, [viewPane({ id: 1, x: 0, y: 0, cols: 80, rows: 24, focused: true })], {
        keys: { prefix, bindings: {} },
      }),
    );
    return { c, sent };
  }

  test('goes to the focused pane as it came', () => {
    const { c, sent } = controller();
    expect(c.typeThrough('hello')).toBe(true);
    expect(sent).toEqual([[FOCUSED, 'hello']]);
  });

  test('is declined with no pane to type into, after the prefix, or when it holds a printable prefix', () => {
    const none = controller();
    none.c.setView(makeView(80, 24, []));
    expect(none.c.typeThrough('a')).toBe(false);

    const prefixed = controller();
    for (const token of new InputDecoder().feed(Buffer.from('\x01'))) prefixed.c.handle(token);
    // After C-a, `d` is a binding (detach), not text for the pane.
    expect(prefixed.c.typeThrough('d')).toBe(false);

    const backtick = controller('`');
    expect(backtick.c.typeThrough('a`b')).toBe(false);
    expect(backtick.c.typeThrough('ab')).toBe(true);
    expect([...prefixed.sent, ...none.sent, ...backtick.sent]).toEqual([[FOCUSED, 'ab']]);
  });
});
