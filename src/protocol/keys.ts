/**
 * The key model both sides share: the names a user writes (`C-a`, `M-x`, `C-Up`, `F5`, `PgUp`, `|`),
 * what the attach client decodes a press as, and the bytes an xterm-compatible terminal sends for a
 * key. The attach client compares the config's keys with presses through `canonicalKey`, so a press
 * decoded from `\x01`, from kitty's `ESC[97;5u` or from modifyOtherKeys' `ESC[27;5;97~` matches the
 * config's `C-a` alike; `send-keys` turns names into bytes with the same `keyBytes`.
 */

export interface KeyName {
  /** A named key (`Enter`, `Up`, `F5`, `Space`…) or the single character the key types. */
  name: string;
  ctrl?: boolean;
  alt?: boolean;
  shift?: boolean;
  super?: boolean;
}

/** Every named key: its canonical name first, then the other spellings accepted (tmux's among them). */
const NAMED_KEYS: readonly (readonly string[])[] = [
  ['Enter', 'Return'],
  ['Tab'],
  ['Escape', 'Esc'],
  ['Space'],
  ['BSpace', 'Backspace'],
  ['Up'],
  ['Down'],
  ['Left'],
  ['Right'],
  ['Home'],
  ['End'],
  ['PageUp', 'PgUp', 'PPage'],
  ['PageDown', 'PgDn', 'NPage'],
  ['Insert', 'IC'],
  ['Delete', 'DC', 'Del'],
  ['Begin'],
  ...Array.from({ length: 12 }, (_, i) => [`F${i + 1}`]),
];

/** Spelling as written → canonical name, and the same lower-cased (the config ignores case). */
const BY_SPELLING = new Map<string, string>();
const BY_LOWER = new Map<string, string>();
for (const [canonical, ...others] of NAMED_KEYS) {
  for (const spelling of [canonical, ...others]) {
    BY_SPELLING.set(spelling, canonical);
    BY_LOWER.set(spelling.toLowerCase(), canonical);
  }
}

/** `BTab` (tmux's name for Shift-Tab) is a named key with a modifier in it. */
const BACK_TAB = 'BTab';

/** The accepted forms of a key, for an error that must list them. */
export const KEY_FORMS =
  'a key is one character or a name (' +
  NAMED_KEYS.filter((spellings) => !/^F\d/.test(spellings[0]))
    .map((spellings) => spellings.join('/'))
    .join(', ') +
  `, ${BACK_TAB}, F1-F12), after any of the modifiers C- (Ctrl), M- (Alt), S- (Shift), e.g. C-c, M-x, C-Up, S-F5`;

const MODIFIER = /^(C|M|S|Super)-(.+)$/s;

function isLetter(ch: string): boolean {
  return /^[A-Za-z]$/.test(ch);
}

/**
 * One spelling per key: modifiers only when set, a shifted letter as its capital (a terminal
 * cannot tell `S-a` from `A` without the kitty protocol), a space as `Space`.
 */
export function canonicalKey(key: KeyName): KeyName {
  let name = key.name === ' ' ? 'Space' : key.name;
  let shift = key.shift === true;
  if (shift && isLetter(name)) {
    name = name.toUpperCase();
    shift = false;
  }
  const out: KeyName = { name };
  if (key.ctrl) out.ctrl = true;
  if (key.alt) out.alt = true;
  if (shift) out.shift = true;
  if (key.super) out.super = true;
  return out;
}

export interface ParseKeyOptions {
  /**
   * Names only as listed (`Enter`, `PgUp`), not in any case: `send-keys` sends a lower-case word
   * such as `end` or `dc` as text. The config reads names in any case.
   */
  exactCase?: boolean;
}

/**
 * A key as the config writes it, e.g. `C-a`, `M-x`, `C-M-Left`, `S-Tab`, `BTab`, `F5`, `|`, `-`.
 * `C-` with a letter means the lower-case letter (as tmux reads it: the terminal sends the same
 * byte); `C-@` is `C-Space`. Undefined when the text is not a key.
 */
export function parseKeyName(text: string, opts: ParseKeyOptions = {}): KeyName | undefined {
  const key: KeyName = { name: '' };
  let rest = text;
  for (let m = MODIFIER.exec(rest); m; m = MODIFIER.exec(rest)) {
    if (m[1] === 'C') key.ctrl = true;
    else if (m[1] === 'M') key.alt = true;
    else if (m[1] === 'S') key.shift = true;
    else key.super = true;
    rest = m[2];
  }
  const named = opts.exactCase ? BY_SPELLING.get(rest) : BY_LOWER.get(rest.toLowerCase());
  if (opts.exactCase ? rest === BACK_TAB : rest.toLowerCase() === BACK_TAB.toLowerCase()) {
    key.name = 'Tab';
    key.shift = true;
  } else if (named !== undefined && rest.length > 1) {
    key.name = named;
  } else if ([...rest].length === 1) {
    key.name = rest;
    if (key.ctrl && rest === '@') key.name = 'Space';
    if (key.ctrl && isLetter(rest) && !key.shift) key.name = rest.toLowerCase();
  } else {
    return undefined;
  }
  return canonicalKey(key);
}

/** The config spelling of a key: `C-M-S-` order, e.g. `C-a`, `M-Enter`, `F5`, `|`. */
export function formatKey(key: KeyName): string {
  const k = canonicalKey(key);
  return `${k.ctrl ? 'C-' : ''}${k.alt ? 'M-' : ''}${k.shift ? 'S-' : ''}${k.super ? 'Super-' : ''}${k.name}`;
}

export function sameKey(a: KeyName, b: KeyName): boolean {
  return formatKey(a) === formatKey(b);
}

/** Whether a decoded token is a press of the key the config writes as `written` (e.g. `C-a`). */
export function isKey(token: { kind: string; key?: KeyName }, written: string): boolean {
  const want = parseKeyName(written);
  return token.kind === 'key' && token.key !== undefined && want !== undefined && sameKey(token.key, want);
}

/** The key a single character typed on a legacy terminal stands for (control bytes included). */
export function keyOfChar(ch: string): KeyName {
  const code = ch.codePointAt(0) ?? 0;
  switch (code) {
    case 0x00:
      return { name: 'Space', ctrl: true };
    case 0x09:
      return { name: 'Tab' };
    case 0x0d:
      return { name: 'Enter' };
    case 0x1b:
      return { name: 'Escape' };
    case 0x7f:
      return { name: 'BSpace' };
    case 0x20:
      return { name: 'Space' };
  }
  if (code >= 0x01 && code <= 0x1a) return { name: String.fromCharCode(code + 96), ctrl: true };
  if (code >= 0x1c && code <= 0x1f) return { name: String.fromCharCode(code + 64), ctrl: true };
  return { name: ch };
}

/** Key codes of the kitty protocol and modifyOtherKeys that are not the character they name. */
const CODE_NAMES: Record<number, string> = {
  9: 'Tab',
  13: 'Enter',
  27: 'Escape',
  127: 'BSpace',
  32: 'Space',
};

/** The key of a kitty / modifyOtherKeys key code (a Unicode code point), or undefined. */
export function keyOfCode(code: number): KeyName | undefined {
  if (code in CODE_NAMES) return { name: CODE_NAMES[code] };
  // Kitty's functional keys live in the private use area; those are not named here.
  if (code < 0x20 || (code >= 0xe000 && code <= 0xf8ff) || code > 0x10ffff) return undefined;
  return { name: String.fromCodePoint(code) };
}

/** Modifiers from an xterm / kitty modifier parameter (1 + a bit mask). */
export function withModifiers(key: KeyName, param: number): KeyName {
  const bits = Math.max(0, param - 1);
  return canonicalKey({
    ...key,
    shift: key.shift || (bits & 1) !== 0,
    alt: key.alt || (bits & 2) !== 0,
    ctrl: key.ctrl || (bits & 4) !== 0,
    super: key.super || (bits & 8) !== 0,
  });
}

const TILDE_CODES: Record<string, number> = {
  Insert: 2,
  Delete: 3,
  PageUp: 5,
  PageDown: 6,
  F5: 15,
  F6: 17,
  F7: 18,
  F8: 19,
  F9: 20,
  F10: 21,
  F11: 23,
  F12: 24,
};
const LETTER_FINALS: Record<string, string> = {
  Up: 'A',
  Down: 'B',
  Right: 'C',
  Left: 'D',
  Home: 'H',
  End: 'F',
  Begin: 'E',
  F1: 'P',
  F2: 'Q',
  F3: 'R',
  F4: 'S',
};
const PLAIN_BYTES: Record<string, string> = {
  Enter: '\r',
  Tab: '\t',
  Escape: '\x1b',
  BSpace: '\x7f',
  Space: ' ',
};

/** What changes the bytes of a key: DECCKM (application cursor keys), which the pane's program sets. */
export interface KeyModes {
  appCursor: boolean;
}

const NORMAL_MODES: KeyModes = { appCursor: false };

/** The keys DECCKM switches from CSI to SS3 when they carry no modifier. */
const CURSOR_KEYS = new Set(['Up', 'Down', 'Right', 'Left', 'Home', 'End', 'Begin']);

/**
 * The bytes a legacy (xterm) terminal sends for a key: modifiers on cursor, navigation and function
 * keys as `CSI 1;m X` or `CSI n;m ~` (m = 1 + shift·1 + alt·2 + ctrl·4 + super·8), so `C-Up` is
 * `ESC[1;5A` and `C-F5` is `ESC[15;5~`; unmodified cursor keys in SS3 form under DECCKM. Undefined
 * for keys such a terminal cannot send (`S-Enter`, `C-1`).
 */
export function keyBytes(key: KeyName, modes: KeyModes = NORMAL_MODES): string | undefined {
  const k = canonicalKey(key);
  const mods = (k.shift ? 1 : 0) | (k.alt ? 2 : 0) | (k.ctrl ? 4 : 0) | (k.super ? 8 : 0);
  if (k.name in TILDE_CODES) {
    const code = TILDE_CODES[k.name];
    return mods === 0 ? `\x1b[${code}~` : `\x1b[${code};${mods + 1}~`;
  }
  if (k.name in LETTER_FINALS) {
    const final = LETTER_FINALS[k.name];
    if (mods !== 0) return `\x1b[1;${mods + 1}${final}`;
    const ss3 = /^F[1-4]$/.test(k.name) || (modes.appCursor && CURSOR_KEYS.has(k.name));
    return ss3 ? `\x1bO${final}` : `\x1b[${final}`;
  }
  if (k.name === 'Tab' && k.shift && !k.ctrl && !k.super) return (k.alt ? '\x1b' : '') + '\x1b[Z';
  if (k.shift || k.super) return undefined;
  const alt = k.alt ? '\x1b' : '';
  if (!k.ctrl) {
    const plain = PLAIN_BYTES[k.name] ?? ([...k.name].length === 1 ? k.name : undefined);
    return plain === undefined ? undefined : alt + plain;
  }
  const c = controlByte(k.name);
  return c === undefined ? undefined : alt + c;
}

function controlByte(name: string): string | undefined {
  if (name === 'Space' || name === '@') return '\x00';
  if (/^[a-z]$/.test(name)) return String.fromCharCode(name.charCodeAt(0) - 96);
  const code = name.length === 1 ? name.charCodeAt(0) : -1;
  if (code >= 0x5b && code <= 0x5f) return String.fromCharCode(code - 64);
  if (name === '?') return '\x7f';
  return undefined;
}
