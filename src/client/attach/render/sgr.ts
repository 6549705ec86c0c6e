/**
 * Cell attributes as the compositor's screen buffer holds them. unblessed packs an attribute
 * into one number, `flags << 18 | fg << 9 | bg` (256 colours; bold, underline, blink, inverse,
 * invisible), which is all its widgets (the popup frame, the overlays) produce. Pane cells need
 * more (truecolor, dim, italic, strikethrough, overline, …), so an attribute at or above
 * EXTENDED_BASE instead indexes a table of full SGR parameter strings. Packed attributes stay
 * below 2^27, so the two never collide and both sit in the same buffer and diff.
 */

/** unblessed's default attribute (no flags, default fg and bg): the default rendition. */
export const DEFAULT_ATTR = (0 << 18) | (0x1ff << 9) | 0x1ff;

export const EXTENDED_BASE = 2 ** 27;

/** SGR parameters (no ESC [ … m) of an unblessed packed attribute, as unblessed's own draw writes them. */
export function packedParams(attr: number): string {
  const bg = attr & 0x1ff;
  const fg = (attr >> 9) & 0x1ff;
  const flags = attr >> 18;
  const out: string[] = [];
  if (flags & 1) out.push('1');
  if (flags & 2) out.push('4');
  if (flags & 4) out.push('5');
  if (flags & 8) out.push('7');
  if (flags & 16) out.push('8');
  if (bg !== 0x1ff) out.push(bg < 8 ? String(40 + bg) : bg < 16 ? String(100 + bg - 8) : `48;5;${bg}`);
  if (fg !== 0x1ff) out.push(fg < 8 ? String(30 + fg) : fg < 16 ? String(90 + fg - 8) : `38;5;${fg}`);
  return out.join(';');
}

/**
 * Whether SGR parameters leave the cell inverse. The parameters are walked, not searched: the 7
 * in `38;5;7` or `38;2;7;7;7` is a colour, not inverse.
 */
export function isInverse(params: string): boolean {
  if (params === '') return false;
  let inverse = false;
  const parts = params.split(';');
  for (let i = 0; i < parts.length; i++) {
    const code = parts[i]!.split(':')[0];
    if (code === '38' || code === '48' || code === '58') {
      if (parts[i]!.includes(':')) continue;
      const kind = parts[i + 1];
      i += kind === '2' ? 4 : kind === '5' ? 2 : 1;
      continue;
    }
    if (code === '7') inverse = true;
    else if (code === '27' || code === '0' || code === '') inverse = false;
  }
  return inverse;
}

/** The parameters of the same rendition with inverse flipped: how a selection shows. */
export function flipInverse(params: string): string {
  if (isInverse(params)) return `${params};27`;
  return params === '' ? '7' : `${params};7`;
}

/**
 * SGR parameter strings interned to extended attributes. A full table is dropped and started
 * again (see SgrTable.full): the caller must then repaint everything, because attributes in its
 * front buffer no longer mean what they meant.
 */
export class SgrTable {
  private readonly ids = new Map<string, number>();
  private readonly params: string[] = [];
  private readonly inverted = new Map<number, number>();
  private readonly underlined = new Map<number, number>();

  constructor(private readonly limit = 1 << 16) {}

  /** The attribute for SGR parameters ('' is the default rendition). */
  attr(params: string): number {
    if (params === '') return DEFAULT_ATTR;
    let id = this.ids.get(params);
    if (id === undefined) {
      id = this.params.length;
      this.params.push(params);
      this.ids.set(params, id);
    }
    return EXTENDED_BASE + id;
  }

  /** SGR parameters of any attribute, packed or extended. */
  paramsOf(attr: number): string {
    if (attr >= EXTENDED_BASE) return this.params[attr - EXTENDED_BASE] ?? '';
    if (attr === DEFAULT_ATTR) return '';
    return packedParams(attr);
  }

  /** The same cell shown inverse (selections). */
  inverse(attr: number): number {
    let out = this.inverted.get(attr);
    if (out === undefined) {
      out = this.attr(flipInverse(this.paramsOf(attr)));
      this.inverted.set(attr, out);
    }
    return out;
  }

  /** The same cell underlined, colours kept (predicted local echo). */
  underline(attr: number): number {
    let out = this.underlined.get(attr);
    if (out === undefined) {
      const params = this.paramsOf(attr);
      out = this.attr(params === '' ? '4' : `${params};4`);
      this.underlined.set(attr, out);
    }
    return out;
  }

  get full(): boolean {
    return this.params.length >= this.limit;
  }

  clear(): void {
    this.ids.clear();
    this.params.length = 0;
    this.inverted.clear();
    this.underlined.clear();
  }
}
