import { builtinActionNames } from '../../../src/client/attach/input/bindings';
import { InputDecoder } from '../../../src/client/attach/input/decoder';
import { helpLines, PrefixKeys, type Outcome } from '../../../src/client/attach/input/keymap';
import type { BytesToken, KeyToken } from '../../../src/client/attach/input/tokens';
import { clientAction, NAMED_CALLS } from '../../../src/protocol/bindings';

/** The outcome of a key bound to an action name: the call it stands for. */
function called(name: string): Outcome {
  return { action: { kind: 'call', ...NAMED_CALLS[name]! } };
}

function tokens(raw: string): Array<KeyToken | BytesToken> {
  const d = new InputDecoder({ now: () => 0 });
  return [...d.feed(raw), ...d.end()].map((t) => {
    if (t.kind !== 'key' && t.kind !== 'bytes') throw new Error(`unexpected ${t.kind}`);
    return t;
  });
}

/** Each outcome of typing `raw` into the keys. */
function type(keys: PrefixKeys, raw: string): Outcome[] {
  return tokens(raw).map((t) => keys.handle(t));
}

describe('without the prefix', () => {
  test('every key goes to the pane as its own bytes, unchanged', () => {
    const keys = new PrefixKeys();
    const input = 'ls -l\r\x1b[A\x1bOA\x1b[13;2u\x1b[98;5:1u\x02\x1bx';
    const out = type(keys, input);
    expect(out.every((o) => 'send' in o)).toBe(true);
    expect(out.map((o) => ('send' in o ? o.send : '')).join('')).toBe(input);
  });

  test('bytes the decoder does not know are sent unchanged', () => {
    expect(type(new PrefixKeys(), '\x1b]11;rgb:0/0/0\x07')).toEqual([{ send: '\x1b]11;rgb:0/0/0\x07' }]);
  });
});

describe('the prefix', () => {
  test('pressing it waits for the next key', () => {
    const keys = new PrefixKeys();
    expect(type(keys, '\x01')).toEqual([{ pending: true }]);
    expect(keys.pending).toBe(true);
  });

  test('the prefix is recognised in its kitty and modifyOtherKeys forms too', () => {
    for (const raw of ['\x1b[97;5u', '\x1b[27;5;97~']) {
      expect(type(new PrefixKeys(), raw + '|')).toEqual([{ pending: true }, called('split-right')]);
    }
  });

  test('the prefix twice sends the prefix itself to the pane', () => {
    const keys = new PrefixKeys();
    expect(type(keys, '\x01\x01')).toEqual([{ pending: true }, { send: '\x01' }]);
    expect(keys.pending).toBe(false);
  });

  test('an unbound key after the prefix is swallowed, and the next key goes to the pane', () => {
    const keys = new PrefixKeys();
    expect(type(keys, '\x01Qa')).toEqual([{ pending: true }, { cancelled: true }, { send: 'a' }]);
  });

  test('an unrecognised sequence after the prefix is swallowed', () => {
    expect(type(new PrefixKeys(), '\x01\x1b[12;3R')).toEqual([{ pending: true }, { cancelled: true }]);
  });

  test('a bound key acts once: the key after it goes to the pane', () => {
    const keys = new PrefixKeys();
    expect(type(keys, '\x01zz')).toEqual([{ pending: true }, called('zoom'), { send: 'z' }]);
  });

  test('cancel forgets a pressed prefix', () => {
    const keys = new PrefixKeys();
    type(keys, '\x01');
    keys.cancel();
    expect(type(keys, 'z')).toEqual([{ send: 'z' }]);
  });

  test('kitty release events of keys taken by the prefix are swallowed; others go to the pane', () => {
    const keys = new PrefixKeys();
    expect(type(keys, '\x1b[97;5u\x1b[97;5:3u\x1b[124u\x1b[124;1:3u\x1b[98u\x1b[98;1:3u')).toEqual([
      { pending: true },
      { pending: true },
      called('split-right'),
      { cancelled: true },
      { send: '\x1b[98u' },
      { send: '\x1b[98;1:3u' },
    ]);
  });
});

describe('the default bindings', () => {
  test.each([
    ['|', called('split-right')],
    ['-', called('split-down')],
    ['h', called('focus-left')],
    ['j', called('focus-down')],
    ['k', called('focus-up')],
    ['l', called('focus-right')],
    ['\x1b[D', called('focus-left')],
    ['\x1b[B', called('focus-down')],
    ['\x1b[A', called('focus-up')],
    ['\x1b[C', called('focus-right')],
    ['\x1bOA', called('focus-up')],
    ['x', called('kill-pane')],
    ['c', called('new-pane')],
    ['t', called('new-tab')],
    ['n', called('next-tab')],
    ['p', called('prev-tab')],
    ['z', called('zoom')],
    ['[', { client: 'copy-mode' }],
    ['d', { client: 'detach' }],
    ['s', { client: 'workspace-picker' }],
    ['a', { client: 'answer-picker' }],
    ['?', { client: 'help' }],
  ])('prefix %j', (raw, outcome) => {
    expect(type(new PrefixKeys(), '\x01' + raw)).toEqual([{ pending: true }, outcome]);
  });

  test.each([1, 2, 3, 4, 5, 6, 7, 8, 9])('prefix %i selects that tab', (n) => {
    expect(type(new PrefixKeys(), `\x01${n}`)).toEqual([
      { pending: true },
      { action: { kind: 'call', call: 'tab.select', input: { which: n } } },
    ]);
  });

  test('prefix 0 is not bound', () => {
    expect(type(new PrefixKeys(), '\x010')).toEqual([{ pending: true }, { cancelled: true }]);
  });
});

describe('the config', () => {
  test('another prefix replaces C-a, which then goes to the pane', () => {
    const keys = new PrefixKeys({ prefix: 'C-b', bindings: {} });
    expect(type(keys, '\x01\x02|\x02\x02')).toEqual([
      { send: '\x01' },
      { pending: true },
      called('split-right'),
      { pending: true },
      { send: '\x02' },
    ]);
  });

  test('a printable prefix works like tmux users set it (`)', () => {
    const keys = new PrefixKeys({ prefix: '`', bindings: {} });
    expect(type(keys, 'a`c``')).toEqual([
      { send: 'a' },
      { pending: true },
      called('new-pane'),
      { pending: true },
      { send: '`' },
    ]);
  });

  test('bindings override defaults and add keys', () => {
    const keys = new PrefixKeys({
      prefix: 'C-a',
      bindings: { x: 'zoom', 'M-v': 'split-right', 'C-a': 'next-tab', F5: 'select-tab-12' },
    });
    expect(type(keys, '\x01x\x01\x1bv\x01\x01\x01\x1b[15~')).toEqual([
      { pending: true },
      called('zoom'),
      { pending: true },
      called('split-right'),
      { pending: true },
      called('next-tab'),
      { pending: true },
      { action: { kind: 'call', call: 'tab.select', input: { which: 12 } } },
    ]);
  });

  test('a binding to an external command asks the server to run it, named by the key as written', () => {
    const keys = new PrefixKeys({
      prefix: 'C-a',
      bindings: { g: { command: 'lazygit', popup: true }, 'C-g': { command: 'git fetch', popup: false } },
    });
    expect(type(keys, '\x01g\x01\x07')).toEqual([
      { pending: true },
      { action: { kind: 'binding', key: 'g' } },
      { pending: true },
      { action: { kind: 'binding', key: 'C-g' } },
    ]);
  });

  test('a binding to a control procedure calls it with its input', () => {
    const keys = new PrefixKeys({
      prefix: 'C-a',
      bindings: {
        v: { call: 'split', input: { direction: 'v', argv: ['htop'] } },
        K: { call: 'kill', input: {} },
      },
    });
    expect(type(keys, '\x01v\x01K')).toEqual([
      { pending: true },
      { action: { kind: 'call', call: 'split', input: { direction: 'v', argv: ['htop'] } } },
      { pending: true },
      { action: { kind: 'call', call: 'kill', input: {} } },
    ]);
  });

  test('"none" removes a default binding', () => {
    const keys = new PrefixKeys({ prefix: 'C-a', bindings: { x: 'none' } });
    expect(type(keys, '\x01x')).toEqual([{ pending: true }, { cancelled: true }]);
  });

  test('send-prefix bound to another key sends the prefix as a legacy terminal would', () => {
    const keys = new PrefixKeys({ prefix: 'C-a', bindings: { a: 'send-prefix' } });
    expect(type(keys, '\x01a')).toEqual([{ pending: true }, { send: '\x01' }]);
  });

  test('prefixBytes is the prefix as a legacy terminal sends it', () => {
    expect(new PrefixKeys().prefixBytes()).toBe('\x01');
    expect(new PrefixKeys({ prefix: 'M-a', bindings: {} }).prefixBytes()).toBe('\x1ba');
  });

  test('bad entries are reported and skipped; a bad prefix falls back to C-a', () => {
    const keys = new PrefixKeys({ prefix: 'C-Nope', bindings: { Hyper: 'zoom', q: 'explode' } });
    expect(keys.problems).toEqual([
      'prefix: "C-Nope" is not a key name; using C-a',
      'Hyper: not a key name (e.g. C-a, M-x, F5, Enter, |)',
      expect.stringContaining('q: unknown action "explode"'),
    ]);
    expect(type(keys, '\x01z')).toEqual([{ pending: true }, called('zoom')]);
  });

  test("the built-in action names are the protocol's", () => {
    expect(builtinActionNames().sort()).toEqual(
      [...Object.keys(NAMED_CALLS), ...clientAction.options, 'select-tab-N', 'none'].sort(),
    );
  });

  test('every built-in action name is accepted', () => {
    for (const name of builtinActionNames()) {
      const binding = name === 'select-tab-N' ? 'select-tab-3' : name;
      expect(new PrefixKeys({ prefix: 'C-a', bindings: { F9: binding } }).problems).toEqual([]);
    }
  });
});

describe('the help overlay', () => {
  test('lists the prefix, then each binding, keys doing the same on one line', () => {
    const lines = helpLines({ g: { command: 'lazygit', popup: true } }, 'C-b');
    expect(lines[0]).toBe('Prefix C-b, then:');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\| +split the pane, the new one to the right$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}h Left +focus the pane to the left$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}1 2 3 4 5 6 7 8 9 +select the tab of that number$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}C-b +send the prefix key to the pane$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}g +popup: lazygit$/));
    expect(lines.some((l) => l.includes('\x1b'))).toBe(false);
  });

  test('a key bound to a procedure shows the call', () => {
    const lines = helpLines({ v: { call: 'split', input: { direction: 'v' } } }, 'C-a');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}v +call: split direction=v$/));
  });

  test('an overridden key shows its new meaning, and a removed one is not listed', () => {
    const lines = helpLines({ x: 'zoom', d: 'none' }, 'C-a');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}x z +zoom the pane in or out$/));
    expect(lines.some((l) => l.includes('detach'))).toBe(false);
    expect(lines.some((l) => l.includes('close the pane'))).toBe(false);
  });
});
