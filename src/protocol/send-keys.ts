/**
 * `send-keys` arguments to pty bytes, tmux-style: an argument that is a key name (`Enter`, `C-c`,
 * `C-Up`, `PgUp`, `M-x`, `F5`…, spelled as listed) becomes that key's bytes (src/protocol/keys.ts, the
 * encoder the attach client uses); anything else is text in which `\x1b`-style escapes are
 * expanded. An argument shaped like a key name that names no key (`C-Upp`, `F13`, `S-Enter`) is an
 * error rather than text, so a typo is not typed into the pane. `literal` sends every argument as
 * it is.
 */
import { KEY_FORMS, keyBytes, parseKeyName, type KeyModes } from './keys';

/**
 * Key-shaped: a modifier prefix on a word with no space (`C-Upp`, `M-foo`), or F and a number. Such
 * an argument is meant as a key, so one that names none is an error; any other text is sent as text.
 */
const KEY_SHAPED = /^(?:(?:C|M|S|Super)-\S+|F\d+)$/;

/** A `send-keys` argument that looks like a key name but is not a key a terminal can send. */
export class KeyNameError extends Error {}

/** One argument's bytes: the key it names, else the text with escapes expanded. */
function argumentBytes(arg: string, modes: KeyModes): string {
  const key = parseKeyName(arg, { exactCase: true });
  if (key) {
    const bytes = keyBytes(key, modes);
    if (bytes === undefined) {
      throw new KeyNameError(
        `${arg}: a terminal has no bytes for this key (Shift and Super reach a program only on named ` +
          'keys such as S-Up or S-F5, and Ctrl only on letters, Space and @[\\]^_?)',
      );
    }
    return bytes;
  }
  if (KEY_SHAPED.test(arg)) {
    throw new KeyNameError(`unknown key ${arg}: ${KEY_FORMS}; --literal sends it as text`);
  }
  return expandEscapes(arg);
}

/** Expand `\xHH`, `\uHHHH`, `\u{H…}`, `\e`, `\n`, `\r`, `\t`, `\0`, `\\` in text. Unknown escapes stay as typed. */
export function expandEscapes(text: string): string {
  return text.replace(
    /\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|[enrt0\\ab])/g,
    (_m, e: string) => {
      switch (e[0]) {
        case 'x':
          return String.fromCharCode(parseInt(e.slice(1), 16));
        case 'u':
          return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
        case 'e':
          return '\x1b';
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case '0':
          return '\0';
        case 'a':
          return '\x07';
        case 'b':
          return '\b';
        default:
          return '\\';
      }
    },
  );
}

export function encodeKeys(args: readonly string[], opts: { literal: boolean; appCursor: boolean }): string {
  if (opts.literal) return args.join('');
  return args.map((a) => argumentBytes(a, opts)).join('');
}
