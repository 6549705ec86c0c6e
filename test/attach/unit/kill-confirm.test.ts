// C-a x on a pane that runs an agent asks first in the status line, as tmux's `kill-pane 3? (y/n)`;
// on a shell it kills at once. The controller with its server and screen stood in for.
import { Controller, type ControllerDeps } from '../../../src/client/attach/controller';
import { InputDecoder } from '../../../src/client/attach/input/decoder';
import type { Compositor } from '../../../src/client/attach/render/compositor';
import type { AttachAction } from '../../../src/protocol/attach';
import { makeView, viewPane } from '../render/harness';

function controller(agent: string | null) {
  const actions: AttachAction[] = [];
  const modes: Array<string | undefined> = [];
  const sent: string[] = [];
  const deps: ControllerDeps = {
    compositor: { setMode: (text: string | undefined) => modes.push(text) } as unknown as Compositor,
    send: (_pane, data) => sent.push(data),
    action: (action) => actions.push(action),
    history: () => Promise.reject(new Error('no history')),
    prompt: () => Promise.resolve(undefined),
    detach: () => undefined,
    redraw: () => undefined,
    modesOf: () => undefined,
    showPanel: () => undefined,
    failed: (what, err) => {
      throw new Error(`${what}: ${String(err)}`);
    },
  };
  const c = new Controller(deps);
  c.setView(
    makeView(80, 24, [viewPane({ id: 3, x: 0, y: 0, cols: 80, rows: 24, focused: true, agent })], {
      keys: { prefix: 'C-a', bindings: { x: 'kill-pane' } },
    }),
  );
  const type = (text: string): void => {
    for (const token of new InputDecoder().feed(Buffer.from(text))) c.handle(token);
  };
  return { c, type, actions, modes, sent };
}

const KILL = { kind: 'call', call: 'kill', input: {} };

describe('C-a x', () => {
  test("on an agent's pane asks in the status line, and y kills it", () => {
    const { c, type, actions, modes, sent } = controller('claude');
    type('\x01x');
    expect(actions).toEqual([]);
    expect(modes.at(-1)).toBe('kill pane 3 (claude)? (y/n)');
    // The answer is not typed into the pane, even on the plain-typing path.
    expect(c.typeThrough('y')).toBe(false);
    type('y');
    expect(actions).toEqual([KILL]);
    expect(modes.at(-1)).toBeUndefined();
    expect(sent).toEqual([]);
  });

  test("on an agent's pane, any other key keeps it", () => {
    const { type, actions, modes, sent } = controller('codex');
    type('\x01x');
    type('n');
    expect(actions).toEqual([]);
    expect(modes.at(-1)).toBeUndefined();
    // The key that answered goes nowhere; the next one is typing again.
    type('a');
    expect(sent).toEqual(['a']);
  });

  test('on a shell kills at once', () => {
    const { type, actions } = controller(null);
    type('\x01x');
    expect(actions).toEqual([KILL]);
  });
});
