import { InputDecoder } from '../../../src/client/attach/input/decoder';
import type { Token } from '../../../src/client/attach/input/tokens';

/** A decoder on a clock the test moves by hand. */
function decoder(escapeTimeMs = 20, pasteIdleMs = 2000) {
  const clock = { t: 1000 };
  const d = new InputDecoder({ now: () => clock.t, escapeTimeMs, pasteIdleMs });
  return { d, clock };
}

function decodeAll(input: string | Buffer): Token[] {
  const { d } = decoder();
  return [...d.feed(typeof input === 'string' ? Buffer.from(input) : input), ...d.end()];
}

function rawOf(tokens: Token[]): string {
  return tokens.map((t) => t.raw).join('');
}

/** Keys as config names, for compact expectations. */
function keyNames(tokens: Token[]): string[] {
  return tokens.map((t) => {
    if (t.kind !== 'key') return `<${t.kind}>`;
    if (!t.key) return '<unnamed key>';
    const k = t.key;
    return `${k.ctrl ? 'C-' : ''}${k.alt ? 'M-' : ''}${k.shift ? 'S-' : ''}${k.super ? 'Super-' : ''}${k.name}`;
  });
}

describe('keys', () => {
  test('printable characters are one key each, named by the character', () => {
    const tokens = decodeAll('a|? é');
    expect(keyNames(tokens)).toEqual(['a', '|', '?', 'Space', 'é']);
    expect(tokens.map((t) => t.raw)).toEqual(['a', '|', '?', ' ', 'é']);
  });

  test('control bytes are Ctrl keys, with Enter, Tab, Backspace and Ctrl-Space named as tmux names them', () => {
    expect(keyNames(decodeAll('\x01\x1a\r\t\x7f\x00\x1c\n'))).toEqual([
      'C-a',
      'C-z',
      'Enter',
      'Tab',
      'BSpace',
      'C-Space',
      'C-\\',
      'C-j',
    ]);
  });

  test('Ctrl-a is recognised from its legacy byte, its kitty CSI-u form and its modifyOtherKeys form', () => {
    for (const raw of ['\x01', '\x1b[97;5u', '\x1b[27;5;97~']) {
      const [token] = decodeAll(raw);
      expect(token).toEqual({ kind: 'key', raw, key: { name: 'a', ctrl: true } });
    }
  });

  test('kitty Shift+Enter is Enter with Shift, and a shifted letter is its capital', () => {
    expect(keyNames(decodeAll('\x1b[13;2u\x1b[97;2u\x1b[27;2;13~'))).toEqual(['S-Enter', 'A', 'S-Enter']);
  });

  test('kitty release and repeat events are marked; a press is not', () => {
    const [press, repeat, release] = decodeAll('\x1b[97;5u\x1b[97;5:2u\x1b[97;5:3u');
    expect(press).toEqual({ kind: 'key', raw: '\x1b[97;5u', key: { name: 'a', ctrl: true } });
    expect(repeat).toMatchObject({ event: 'repeat', key: { name: 'a', ctrl: true } });
    expect(release).toMatchObject({ event: 'release', key: { name: 'a', ctrl: true } });
  });

  test('a kitty key code with no name here is still one key press, its bytes kept', () => {
    expect(decodeAll('\x1b[57399u')).toEqual([{ kind: 'key', raw: '\x1b[57399u' }]);
  });

  test('cursor keys in normal and application mode, with xterm modifiers', () => {
    expect(keyNames(decodeAll('\x1b[A\x1bOB\x1b[1;5C\x1b[1;3D\x1b[1;2H\x1bOF'))).toEqual([
      'Up',
      'Down',
      'C-Right',
      'M-Left',
      'S-Home',
      'End',
    ]);
  });

  test('function and editing keys in their tilde and SS3 forms', () => {
    expect(
      keyNames(
        decodeAll('\x1bOP\x1b[1;2Q\x1b[15~\x1b[24;5~\x1b[2~\x1b[3~\x1b[5~\x1b[6~\x1b[1~\x1b[4~\x1b[Z'),
      ),
    ).toEqual([
      'F1',
      'S-F2',
      'F5',
      'C-F12',
      'Insert',
      'Delete',
      'PageUp',
      'PageDown',
      'Home',
      'End',
      'S-Tab',
    ]);
  });

  test('the application keypad types its characters', () => {
    expect(keyNames(decodeAll('\x1bOq\x1bOM\x1bOk\x1bOX'))).toEqual(['1', 'Enter', '+', '=']);
  });

  test('ESC and a character in one read is that key with Alt', () => {
    const tokens = decodeAll('\x1bx\x1b\x01\x1b\r\x1bé');
    expect(keyNames(tokens)).toEqual(['M-x', 'C-M-a', 'M-Enter', 'M-é']);
    expect(tokens.map((t) => t.raw)).toEqual(['\x1bx', '\x1b\x01', '\x1b\r', '\x1bé']);
  });

  test('ESC before a sequence adds Alt to it (rxvt sends Alt-Up as ESC ESC [A)', () => {
    const tokens = decodeAll('\x1b\x1b[A');
    expect(tokens).toEqual([{ kind: 'key', raw: '\x1b\x1b[A', key: { name: 'Up', alt: true } }]);
  });
});

describe('the escape time', () => {
  test('a lone ESC is held until its deadline, then it is Escape', () => {
    const { d, clock } = decoder(20);
    expect(d.feed(Buffer.from('\x1b'))).toEqual([]);
    expect(d.pendingDeadline()).toBe(1020);
    clock.t = 1020;
    expect(d.flush()).toEqual([{ kind: 'key', raw: '\x1b', key: { name: 'Escape' } }]);
    expect(d.pendingDeadline()).toBeUndefined();
  });

  test('a character arriving within the escape time makes Alt-x', () => {
    const { d, clock } = decoder(20);
    d.feed(Buffer.from('\x1b'));
    clock.t += 19;
    expect(keyNames(d.feed(Buffer.from('x')))).toEqual(['M-x']);
  });

  test('a character arriving after the escape time is a key of its own, after Escape', () => {
    const { d, clock } = decoder(20);
    d.feed(Buffer.from('\x1b'));
    clock.t += 20;
    const tokens = d.feed(Buffer.from('x'));
    expect(keyNames(tokens)).toEqual(['Escape', 'x']);
    expect(rawOf(tokens)).toBe('\x1bx');
  });

  test('a sequence split across reads within the escape time is one key', () => {
    const { d, clock } = decoder(20);
    expect(d.feed(Buffer.from('\x1b['))).toEqual([]);
    clock.t += 5;
    expect(d.feed(Buffer.from('1;5'))).toEqual([]);
    clock.t += 5;
    expect(keyNames(d.feed(Buffer.from('A')))).toEqual(['C-Up']);
  });

  test('the deadline counts from the last byte received', () => {
    const { d, clock } = decoder(20);
    d.feed(Buffer.from('\x1b['));
    clock.t += 15;
    d.feed(Buffer.from('1'));
    expect(d.pendingDeadline()).toBe(clock.t + 20);
  });

  test('an incomplete sequence at its deadline is read as its shortest meaning, nothing lost', () => {
    const { d } = decoder(20);
    d.feed(Buffer.from('\x1b[1;5'));
    const tokens = d.flush();
    expect(keyNames(tokens)).toEqual(['M-[', '1', ';', '5']);
    expect(rawOf(tokens)).toBe('\x1b[1;5');
  });

  test('Alt-O and Alt-[ typed alone are keys once the deadline passes', () => {
    const { d } = decoder(20);
    d.feed(Buffer.from('\x1bO'));
    expect(keyNames(d.flush())).toEqual(['M-O']);
    d.feed(Buffer.from('\x1b['));
    expect(keyNames(d.flush())).toEqual(['M-[']);
  });

  test('a run-on CSI is not a sequence: the prefix inside it is still found', () => {
    const tokens = decodeAll('\x1b[1;\x01x');
    expect(keyNames(tokens)).toEqual(['M-[', '1', ';', 'C-a', 'x']);
  });

  test('nothing is held after a complete token, so there is no deadline', () => {
    const { d } = decoder();
    d.feed(Buffer.from('abc\x1b[A'));
    expect(d.pendingDeadline()).toBeUndefined();
  });
});

describe('mouse', () => {
  test('SGR presses, releases, motion and modifiers, with 0-based cells', () => {
    const [press, release, drag, move] = decodeAll('\x1b[<0;10;5M\x1b[<2;10;5m\x1b[<32;11;5M\x1b[<35;1;1M');
    expect(press).toEqual({
      kind: 'mouse',
      raw: '\x1b[<0;10;5M',
      action: 'press',
      button: 0,
      x: 9,
      y: 4,
      shift: false,
      alt: false,
      ctrl: false,
    });
    expect(release).toMatchObject({ action: 'release', button: 2, x: 9, y: 4 });
    expect(drag).toMatchObject({ action: 'motion', button: 0, x: 10 });
    expect(move).toMatchObject({ action: 'motion', button: 3, x: 0, y: 0 });
    const [mods] = decodeAll('\x1b[<28;3;4M');
    expect(mods).toMatchObject({ button: 0, shift: true, alt: true, ctrl: true });
  });

  test('wheel reports name their direction', () => {
    const tokens = decodeAll('\x1b[<64;5;5M\x1b[<65;5;5M\x1b[<69;5;5M');
    expect(tokens).toMatchObject([
      { button: 4, wheel: 'up', action: 'press', shift: false },
      { button: 5, wheel: 'down' },
      { button: 5, wheel: 'down', shift: true },
    ]);
  });

  test('the X10 form is read too', () => {
    const raw =
      '\x1b[M' + String.fromCharCode(32 + 0, 33 + 4, 33 + 2) + '\x1b[M' + String.fromCharCode(32 + 3, 34, 34);
    expect(decodeAll(raw)).toMatchObject([
      { kind: 'mouse', action: 'press', button: 0, x: 4, y: 2 },
      { kind: 'mouse', action: 'release', button: 3, x: 1, y: 1 },
    ]);
  });

  test('a malformed SGR report is passed on as bytes', () => {
    expect(decodeAll('\x1b[<0;0;5M')).toEqual([{ kind: 'bytes', raw: '\x1b[<0;0;5M' }]);
  });
});

describe('bracketed paste', () => {
  test('the text between the markers is one paste, escape bytes inside it included', () => {
    const tokens = decodeAll('x\x1b[200~hi \x1b[A\x01there\x1b[201~y');
    expect(tokens).toEqual([
      { kind: 'key', raw: 'x', key: { name: 'x' } },
      { kind: 'paste', text: 'hi \x1b[A\x01there', raw: '\x1b[200~hi \x1b[A\x01there\x1b[201~' },
      { kind: 'key', raw: 'y', key: { name: 'y' } },
    ]);
  });

  test('a paste arriving in many chunks, the end marker split, is one paste', () => {
    const { d, clock } = decoder();
    const out: Token[] = [];
    // Within the escape time until the start marker is complete, then slower than it.
    for (const [chunk, after] of [
      ['\x1b[20', 5],
      ['0~line one\r', 500],
      ['line two\x1b[2', 500],
      ['01', 500],
      ['~', 0],
    ] as const) {
      out.push(...d.feed(Buffer.from(chunk)));
      clock.t += after;
    }
    expect(out).toEqual([
      { kind: 'paste', text: 'line one\rline two', raw: '\x1b[200~line one\rline two\x1b[201~' },
    ]);
  });

  test('a paste whose end marker never comes is delivered after the paste idle time', () => {
    const { d, clock } = decoder(20, 2000);
    d.feed(Buffer.from('\x1b[200~partial\x1b[20'));
    expect(d.pendingDeadline()).toBe(3000);
    clock.t = 3000;
    const tokens = d.feed(Buffer.from('a'));
    expect(tokens).toEqual([
      { kind: 'paste', text: 'partial\x1b[20', raw: '\x1b[200~partial\x1b[20' },
      { kind: 'key', raw: 'a', key: { name: 'a' } },
    ]);
  });

  test('a large paste in small chunks is delivered whole', () => {
    const { d } = decoder();
    const text = 'abcdefghij'.repeat(20_000);
    const input = Buffer.from(`\x1b[200~${text}\x1b[201~`);
    const out: Token[] = [];
    for (let i = 0; i < input.length; i += 4096) out.push(...d.feed(input.subarray(i, i + 4096)));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'paste', text });
  });
});

describe('focus and unknown input', () => {
  test('focus in and out reports', () => {
    expect(decodeAll('\x1b[I\x1b[O')).toEqual([
      { kind: 'focus', raw: '\x1b[I', focused: true },
      { kind: 'focus', raw: '\x1b[O', focused: false },
    ]);
  });

  test('an unknown CSI and a terminal OSC reply pass through as bytes, whole', () => {
    const osc = '\x1b]11;rgb:0000/0000/0000\x1b\\';
    expect(decodeAll('\x1b[12;40R' + osc + '\x1b]0;t\x07\x1b[?1;2c')).toEqual([
      { kind: 'bytes', raw: '\x1b[12;40R' },
      { kind: 'bytes', raw: osc },
      { kind: 'bytes', raw: '\x1b]0;t\x07' },
      { kind: 'bytes', raw: '\x1b[?1;2c' },
    ]);
  });

  test('a stray paste end marker passes through as bytes', () => {
    expect(decodeAll('\x1b[201~')).toEqual([{ kind: 'bytes', raw: '\x1b[201~' }]);
  });
});

describe('UTF-8', () => {
  test('a character split across reads is decoded once it is complete', () => {
    const { d } = decoder();
    const euro = Buffer.from('€');
    expect(d.feed(euro.subarray(0, 1))).toEqual([]);
    expect(d.feed(euro.subarray(1, 2))).toEqual([]);
    expect(d.feed(euro.subarray(2))).toEqual([{ kind: 'key', raw: '€', key: { name: '€' } }]);
  });

  test('a four-byte character is one key', () => {
    expect(decodeAll('😀')).toEqual([{ kind: 'key', raw: '😀', key: { name: '😀' } }]);
  });

  test('bytes that are not UTF-8 become U+FFFD, as the protocol carries text', () => {
    expect(rawOf(decodeAll(Buffer.from([0x61, 0xff, 0x62])))).toBe('a\ufffdb');
  });

  test('the escape deadline does not break a character whose bytes were split', () => {
    const { d, clock } = decoder(20);
    const euro = Buffer.from('€');
    d.feed(Buffer.from([0x1b, euro[0]]));
    clock.t += 100;
    expect(keyNames(d.flush())).toEqual(['Escape']);
    expect(d.pendingDeadline()).toBeUndefined();
    expect(d.feed(euro.subarray(1))).toEqual([{ kind: 'key', raw: '€', key: { name: '€' } }]);
  });

  test('a character broken by the next byte becomes U+FFFD and the byte is read', () => {
    expect(rawOf(decodeAll(Buffer.from([0xe2, 0x82, 0x61])))).toBe('\ufffda');
  });

  test('a broken character at the end of input is given up when the input ends', () => {
    const { d } = decoder();
    d.feed(Buffer.from([0xe2, 0x82]));
    expect(d.flush()).toEqual([]);
    expect(rawOf(d.end())).toBe('\ufffd');
  });
});

describe('splitting', () => {
  const input = Buffer.from(
    'ab\x01|\x1b[97;5u\x1bx\x1b[1;5A\x1bOP\x1b[<0;12;3M\x1b[<64;1;1M' +
      '\x1b[200~pasted €\x1b[B text\x1b[201~\x1b[I\x1b]11;rgb:1/2/3\x07\x1b[?6c😀é\x1b\x1b[D\x1b[24~\x1b[27;5;106~z',
  );

  function whole(): Token[] {
    return decodeAll(input);
  }

  test('the raw texts of the tokens concatenate to the input', () => {
    expect(rawOf(whole())).toBe(input.toString('utf8'));
  });

  test('split at every byte, the input decodes to the same tokens', () => {
    const expected = whole();
    for (let cut = 1; cut < input.length; cut++) {
      const { d } = decoder();
      const tokens = [...d.feed(input.subarray(0, cut)), ...d.feed(input.subarray(cut)), ...d.end()];
      expect(tokens).toEqual(expected);
    }
  });

  test('fed one byte at a time, the input decodes to the same tokens', () => {
    const { d } = decoder();
    const tokens: Token[] = [];
    for (let i = 0; i < input.length; i++) tokens.push(...d.feed(input.subarray(i, i + 1)));
    tokens.push(...d.end());
    expect(tokens).toEqual(whole());
  });

  test('cut into random chunks many times, the input decodes to the same tokens', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const expected = whole();
    for (let round = 0; round < 200; round++) {
      const { d } = decoder();
      const tokens: Token[] = [];
      for (let i = 0; i < input.length;) {
        const n = 1 + Math.floor(random() * 9);
        tokens.push(...d.feed(input.subarray(i, i + n)));
        i += n;
      }
      tokens.push(...d.end());
      expect(tokens).toEqual(expected);
    }
  });

  test('whatever the timing, no byte is lost or reordered', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const { d, clock } = decoder(20);
      const tokens: Token[] = [];
      for (let i = 0; i < input.length;) {
        const n = 1 + Math.floor(random() * 6);
        tokens.push(...d.feed(input.subarray(i, i + n)));
        clock.t += Math.floor(random() * 40);
        const deadline = d.pendingDeadline();
        if (deadline !== undefined && random() < 0.3 && clock.t >= deadline) tokens.push(...d.flush());
        i += n;
      }
      tokens.push(...d.end());
      expect(rawOf(tokens)).toBe(input.toString('utf8'));
    }
  });
});
