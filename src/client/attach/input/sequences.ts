/**
 * Reading one token at a position of the decoder's text: a character, an Alt-modified key, or an
 * escape sequence (CSI, SS3, or a string sequence such as a terminal's OSC reply). What a
 * recognised sequence means is decided here; the decoder does the buffering and the timing.
 */
import { keyOfChar, keyOfCode, withModifiers, type KeyName } from '../../../protocol/keys';
import type { KeyToken, MouseToken, Token } from './tokens';

const ESC = '\x1b';
/** Longer than any key or mouse report; a CSI that runs on is not one and is read as keys. */
const MAX_CSI = 256;
/** A string sequence (OSC, DCS, APC…) longer than this without its terminator is read as keys. */
const MAX_STRING = 4096;

/** What was read at a position: a token (or the start of a bracketed paste) and where it ends. */
export type Step = { token: Token; end: number } | { pasteStart: true; end: number };

/**
 * The token at `i`, or undefined when the text ends before it is complete (more may be coming).
 * With `final` no more is coming: an incomplete sequence is read as its shortest meaning (ESC
 * alone is Escape, `ESC [` is Alt-[ and what follows is read afresh).
 */
export function readToken(text: string, i: number, final: boolean): Step | undefined {
  if (text[i] !== ESC) return charKey(text, i);
  if (i + 1 >= text.length) return final ? keyStep(ESC, { name: 'Escape' }, i + 1) : undefined;
  const next = text[i + 1];
  if (next === '[') return readCsi(text, i, final);
  if (next === 'O') return readSs3(text, i, final);
  if (next === ']' || next === 'P' || next === '_' || next === '^' || next === 'X') {
    return readString(text, i, final);
  }
  if (next === ESC) return readEscEsc(text, i, final);
  return altKey(text, i);
}

function keyStep(raw: string, key: KeyName | undefined, end: number): Step {
  const token: KeyToken = { kind: 'key', raw };
  if (key) token.key = key;
  return { token, end };
}

function charKey(text: string, i: number): Step {
  const cp = text.codePointAt(i) ?? 0;
  const ch = String.fromCodePoint(cp);
  return keyStep(ch, keyOfChar(ch), i + ch.length);
}

/** ESC and the character after it: that character's key with Alt. */
function altKey(text: string, i: number): Step {
  const cp = text.codePointAt(i + 1) ?? 0;
  const ch = String.fromCodePoint(cp);
  return keyStep(ESC + ch, withModifiers(keyOfChar(ch), 3), i + 1 + ch.length);
}

/** ESC ESC…: Alt with the key that follows (rxvt's Alt-Up is `ESC ESC [A`), else a plain Escape. */
function readEscEsc(text: string, i: number, final: boolean): Step | undefined {
  const inner = readToken(text, i + 1, final);
  if (!inner) return undefined;
  if ('token' in inner && inner.token.kind === 'key' && inner.token.key && !inner.token.key.alt) {
    const token: KeyToken = {
      ...inner.token,
      raw: ESC + inner.token.raw,
      key: withModifiers(inner.token.key, 3),
    };
    return { token, end: inner.end };
  }
  return keyStep(ESC, { name: 'Escape' }, i + 1);
}

function readCsi(text: string, i: number, final: boolean): Step | undefined {
  let j = i + 2;
  while (j < text.length && isParam(text.charCodeAt(j))) j++;
  while (j < text.length && isIntermediate(text.charCodeAt(j))) j++;
  if (j >= text.length) {
    if (final || j - i > MAX_CSI) return altKey(text, i);
    return undefined;
  }
  if (!isFinal(text.charCodeAt(j)) || j - i > MAX_CSI) return altKey(text, i);
  const raw = text.slice(i, j + 1);
  if (raw === '\x1b[M') return readX10Mouse(text, i, final);
  const meaning = csiMeaning(raw);
  return meaning === 'paste-start' ? { pasteStart: true, end: j + 1 } : { token: meaning, end: j + 1 };
}

function isParam(c: number): boolean {
  return c >= 0x30 && c <= 0x3f;
}
function isIntermediate(c: number): boolean {
  return c >= 0x20 && c <= 0x2f;
}
function isFinal(c: number): boolean {
  return c >= 0x40 && c <= 0x7e;
}

const TILDE_KEYS: Record<number, string> = {
  1: 'Home',
  2: 'Insert',
  3: 'Delete',
  4: 'End',
  5: 'PageUp',
  6: 'PageDown',
  7: 'Home',
  8: 'End',
  11: 'F1',
  12: 'F2',
  13: 'F3',
  14: 'F4',
  15: 'F5',
  17: 'F6',
  18: 'F7',
  19: 'F8',
  20: 'F9',
  21: 'F10',
  23: 'F11',
  24: 'F12',
};

const LETTER_KEYS: Record<string, string> = {
  A: 'Up',
  B: 'Down',
  C: 'Right',
  D: 'Left',
  E: 'Begin',
  H: 'Home',
  F: 'End',
  P: 'F1',
  Q: 'F2',
  R: 'F3',
  S: 'F4',
};

/** The first number of a `;` field (kitty puts sub-fields after `:`); NaN when absent. */
function fieldNumber(field: string | undefined, part = 0): number {
  if (field === undefined) return NaN;
  const sub = field.split(':')[part];
  return sub === undefined || sub === '' ? NaN : Number(sub);
}

/** A complete CSI sequence as a token (or the start of a paste); what is not known is `bytes`. */
function csiMeaning(raw: string): Token | 'paste-start' {
  const body = raw.slice(2, -1);
  const final = raw[raw.length - 1];
  if (body.startsWith('<')) return sgrMouse(raw, body.slice(1), final) ?? { kind: 'bytes', raw };
  if (/[^0-9;:]/.test(body)) return { kind: 'bytes', raw };
  const fields = body === '' ? [] : body.split(';');
  if (final === '~') return tildeKey(raw, fields);
  if (final === 'u') return codeKey(raw, fieldNumber(fields[0]), fields[1]);
  if (body === '' && (final === 'I' || final === 'O')) return { kind: 'focus', raw, focused: final === 'I' };
  if (final === 'Z' && fields.length <= 2 && leadsWithOne(fields)) {
    return modifiedKey(raw, { name: 'Tab', shift: true }, fields[1]);
  }
  if (final in LETTER_KEYS && fields.length <= 2 && leadsWithOne(fields)) {
    return modifiedKey(raw, { name: LETTER_KEYS[final] }, fields[1]);
  }
  return { kind: 'bytes', raw };
}

/** xterm's modified cursor and function keys lead with `1;` (`ESC[1;5A`); plain ones have none. */
function leadsWithOne(fields: string[]): boolean {
  return fields.length === 0 || fields[0] === '' || fieldNumber(fields[0]) === 1;
}

function tildeKey(raw: string, fields: string[]): Token | 'paste-start' {
  const first = fieldNumber(fields[0]);
  if (first === 200 && fields.length === 1) return 'paste-start';
  // xterm's modifyOtherKeys: ESC [ 27 ; modifiers ; code ~
  if (first === 27 && fields.length === 3) return codeKey(raw, fieldNumber(fields[2]), fields[1]);
  if (first in TILDE_KEYS && fields.length <= 2)
    return modifiedKey(raw, { name: TILDE_KEYS[first] }, fields[1]);
  return { kind: 'bytes', raw };
}

function codeKey(raw: string, code: number, modifiers: string | undefined): Token {
  if (!Number.isInteger(code)) return { kind: 'bytes', raw };
  const key = keyOfCode(code);
  if (!key) return withEvent({ kind: 'key', raw }, modifiers);
  return modifiedKey(raw, key, modifiers);
}

function modifiedKey(raw: string, key: KeyName, modifiers: string | undefined): KeyToken {
  const param = fieldNumber(modifiers);
  const token: KeyToken = {
    kind: 'key',
    raw,
    key: Number.isInteger(param) ? withModifiers(key, param) : key,
  };
  return withEvent(token, modifiers);
}

/** Kitty's event type sub-field: `;5:3u` is a release of Ctrl+… */
function withEvent(token: KeyToken, modifiers: string | undefined): KeyToken {
  const event = fieldNumber(modifiers, 1);
  if (event === 2) token.event = 'repeat';
  if (event === 3) token.event = 'release';
  return token;
}

/** SGR (1006) mouse report: `ESC [ < b ; x ; y M` (press, motion) or `m` (release), 1-based cells. */
function sgrMouse(raw: string, params: string, final: string): MouseToken | undefined {
  if (final !== 'M' && final !== 'm') return undefined;
  const m = /^(\d+);(\d+);(\d+)$/.exec(params);
  if (!m) return undefined;
  const [b, x, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (x < 1 || y < 1) return undefined;
  return mouseToken(raw, b, x - 1, y - 1, final === 'm');
}

/** X10 / normal mouse report: `ESC [ M` and three characters, each a value plus 32. */
function readX10Mouse(text: string, i: number, final: boolean): Step | undefined {
  if (i + 6 > text.length) {
    if (final) return { token: { kind: 'bytes', raw: text.slice(i, i + 3) }, end: i + 3 };
    return undefined;
  }
  const raw = text.slice(i, i + 6);
  const [b, x, y] = [raw.charCodeAt(3) - 32, raw.charCodeAt(4) - 33, raw.charCodeAt(5) - 33];
  if (b < 0 || x < 0 || y < 0) return { token: { kind: 'bytes', raw }, end: i + 6 };
  const released = (b & 3) === 3 && (b & (32 | 64 | 128)) === 0;
  return { token: mouseToken(raw, b, x, y, released), end: i + 6 };
}

const WHEELS = ['up', 'down', 'left', 'right'] as const;

function mouseToken(raw: string, b: number, x: number, y: number, released: boolean): MouseToken {
  const base = b & ~(4 | 8 | 16 | 32);
  const button = base >= 128 ? 8 + (base & 3) : base >= 64 ? 4 + (base & 3) : base & 3;
  const token: MouseToken = {
    kind: 'mouse',
    raw,
    action: released ? 'release' : (b & 32) !== 0 ? 'motion' : 'press',
    button,
    x,
    y,
    shift: (b & 4) !== 0,
    alt: (b & 8) !== 0,
    ctrl: (b & 16) !== 0,
  };
  if (button >= 4 && button <= 7) token.wheel = WHEELS[button - 4];
  return token;
}

/** SS3 finals: the CSI letter keys, and Enter on the application keypad. */
const SS3_KEYS: Record<string, string> = { ...LETTER_KEYS, M: 'Enter' };
/** Application keypad keys (SS3 j…y, X) type these characters. */
const KEYPAD = '*+,-./0123456789';

/** SS3 (`ESC O x`): cursor keys in application mode, F1–F4, the application keypad. */
function readSs3(text: string, i: number, final: boolean): Step | undefined {
  if (i + 2 >= text.length) return final ? altKey(text, i) : undefined;
  const c = text[i + 2];
  const raw = text.slice(i, i + 3);
  if (c in SS3_KEYS) return keyStep(raw, { name: SS3_KEYS[c] }, i + 3);
  if (c === 'X') return keyStep(raw, { name: '=' }, i + 3);
  const pad = c.charCodeAt(0) - 'j'.charCodeAt(0);
  if (pad >= 0 && pad < KEYPAD.length) return keyStep(raw, { name: KEYPAD[pad] }, i + 3);
  return altKey(text, i);
}

/** OSC, DCS, APC, PM, SOS (a terminal's replies): through BEL or ST, passed on as bytes. */
function readString(text: string, i: number, final: boolean): Step | undefined {
  for (let j = i + 2; j < text.length && j - i <= MAX_STRING; j++) {
    if (text[j] === '\x07') return { token: { kind: 'bytes', raw: text.slice(i, j + 1) }, end: j + 1 };
    if (text[j] === ESC && text[j + 1] === '\\')
      return { token: { kind: 'bytes', raw: text.slice(i, j + 2) }, end: j + 2 };
    // A lone ESC at the very end may be the start of ST.
    if (text[j] === ESC && j + 1 >= text.length && !final) return undefined;
  }
  if (final || text.length - i > MAX_STRING) return altKey(text, i);
  return undefined;
}
