/**
 * `send-keys` arguments to pty bytes, tmux-style: an argument that is exactly a key name (`Enter`,
 * `C-c`, `Up`, `M-x`, `F5`…) becomes that key; anything else is text in which `\x1b`-style escapes
 * are expanded. `literal` sends every argument as it is.
 */

const named: Record<string, string> = {
  Enter: '\r',
  Tab: '\t',
  BTab: '\x1b[Z',
  Escape: '\x1b',
  Esc: '\x1b',
  Space: ' ',
  BSpace: '\x7f',
  Backspace: '\x7f',
  Delete: '\x1b[3~',
  DC: '\x1b[3~',
  Insert: '\x1b[2~',
  IC: '\x1b[2~',
  PageUp: '\x1b[5~',
  PPage: '\x1b[5~',
  PageDown: '\x1b[6~',
  NPage: '\x1b[6~',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

/** Cursor keys depend on DECCKM (application cursor mode), as a real terminal's do. */
const cursor: Record<string, string> = { Up: 'A', Down: 'B', Right: 'C', Left: 'D', Home: 'H', End: 'F' };

function ctrl(ch: string): string | undefined {
  if (ch.length !== 1) return undefined;
  const c = ch.toLowerCase();
  if (c >= 'a' && c <= 'z') return String.fromCharCode(c.charCodeAt(0) - 96);
  const table: Record<string, string> = {
    '@': '\x00',
    ' ': '\x00',
    '[': '\x1b',
    '\\': '\x1c',
    ']': '\x1d',
    '^': '\x1e',
    _: '\x1f',
    '?': '\x7f',
  };
  return table[ch];
}

/** One key name to its bytes, or undefined if the argument is not a key name. */
export function keyBytes(name: string, appCursor: boolean): string | undefined {
  if (name in named) return named[name];
  if (name in cursor) return (appCursor ? '\x1bO' : '\x1b[') + cursor[name];
  const mod = /^([CM])-(.+)$/.exec(name);
  if (!mod) return undefined;
  const [, kind, rest] = mod;
  if (kind === 'C') {
    if (rest === 'Space') return '\x00';
    const inner = /^M-(.+)$/.exec(rest);
    if (inner) {
      const c = ctrl(inner[1]);
      return c === undefined ? undefined : '\x1b' + c;
    }
    return ctrl(rest);
  }
  const inner = keyBytes(rest, appCursor) ?? (rest.length === 1 ? rest : undefined);
  return inner === undefined ? undefined : '\x1b' + inner;
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
  return args.map((a) => keyBytes(a, opts.appCursor) ?? expandEscapes(a)).join('');
}
