import { NAMED_CALLS, namedCall } from '../../src/protocol/bindings';
import { callInput, checkBindingInput } from '../../src/server/attach/bindable';
import { parseConfig } from '../../src/server/config';

const ctx = { workspace: 'w', focused: 3, cwd: '/work', env: { HOME: '/h' } };

describe('bindings name control procedures', () => {
  test.each(Object.entries(NAMED_CALLS))(
    'the action name %s is a call its procedure accepts',
    (_name, call) => {
      expect(checkBindingInput(call)).toBeUndefined();
    },
  );

  test('select-tab-N is tab.select of N', () => {
    expect(namedCall('select-tab-4')).toEqual({ call: 'tab.select', input: { which: 4 } });
    expect(namedCall('select-tab-0')).toBeUndefined();
  });

  test("a call gets the client's workspace, the focused pane, and for a new program its cwd and env", () => {
    expect(callInput({ call: 'kill', input: {} }, ctx)).toEqual({ workspace: 'w', id: 3 });
    expect(callInput({ call: 'split', input: { direction: 'v' } }, ctx)).toEqual({
      workspace: 'w',
      cwd: '/work',
      env: { HOME: '/h' },
      direction: 'v',
    });
    expect(callInput({ call: 'resize', input: { id: 1, delta: 2 } }, ctx)).toEqual({
      workspace: 'w',
      id: 1,
      delta: 2,
    });
  });

  test("a key may answer the focused pane's prompt, with a choice the answer procedure accepts", () => {
    expect(callInput({ call: 'answer', input: { choice: '2' } }, ctx)).toEqual({
      workspace: 'w',
      id: 3,
      choice: '2',
    });
    expect(checkBindingInput({ call: 'answer', input: { choice: 'always' } })).toBeUndefined();
    expect(checkBindingInput({ call: 'answer', input: { choice: 'maybe' } })).toBe(
      'choice: unknown choice "maybe": answer yes, no, always or an option number (1-99)',
    );
  });

  test('a call on the focused pane with none focused does nothing', () => {
    const none = { ...ctx, focused: undefined };
    expect(callInput({ call: 'kill', input: {} }, none)).toBeUndefined();
    expect(callInput({ call: 'focus', input: { target: 'left' } }, none)).toBeUndefined();
    expect(callInput({ call: 'new', input: {} }, none)).toEqual({
      workspace: 'w',
      cwd: '/work',
      env: { HOME: '/h' },
    });
  });

  test('the config checks a call against its procedure: the name, then the input, at its line', () => {
    expect(
      parseConfig('[bindings]\n"v" = { call = "split", input = { direction = "v" } }\n', 'c.toml').bindings.v,
    ).toEqual({
      call: 'split',
      input: { direction: 'v' },
    });
    expect(parseConfig('[bindings]\n"k" = { call = "kill" }\n', 'c.toml').bindings.k).toEqual({
      call: 'kill',
      input: {},
    });
    expect(() => parseConfig('[bindings]\n"v" = { call = "server.kill" }\n', 'c.toml')).toThrow(
      /c\.toml:2: bindings\.v\.call: expected one of .*"split".*, got "server\.kill"/,
    );
    expect(() =>
      parseConfig('[bindings]\n"v" = { call = "split", input = { direction = "x" } }\n', 'c.toml'),
    ).toThrow(/c\.toml:2: bindings\.v\.input: split: direction:/);
    expect(() =>
      parseConfig('[bindings]\n"v" = { call = "zoom", input = { pane = 2 } }\n', 'c.toml'),
    ).toThrow(/bindings\.v\.input: zoom: .*pane/);
  });

  test('the old forms still read: action names and commands', () => {
    const config = parseConfig(
      '[bindings]\n"g" = "zoom"\n"f" = { command = "fzf", popup = true }\n',
      'c.toml',
    );
    expect(config.bindings).toEqual({ g: 'zoom', f: { command: 'fzf', popup: true } });
  });
});
