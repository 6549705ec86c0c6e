import type { IBufferCell } from '@xterm/headless';

// xterm's colour modes as getFgColorMode()/getBgColorMode() report them (Attributes.CM_* inside
// xterm). The 16-colour and 256-colour palettes must be told apart to reproduce the SGR that set
// them: `31` and `38;5;1` are the same red but not the same cell.
const COLOR_MODE_P16 = 0x1000000;
const COLOR_MODE_P256 = 0x2000000;
const COLOR_MODE_RGB = 0x3000000;

const BOLD = 1 << 0;
const DIM = 1 << 1;
const ITALIC = 1 << 2;
const UNDERLINE = 1 << 3;
const BLINK = 1 << 4;
const INVERSE = 1 << 5;
const INVISIBLE = 1 << 6;
const STRIKETHROUGH = 1 << 7;
const OVERLINE = 1 << 8;

const FLAG_SGR: ReadonlyArray<readonly [flag: number, sgr: string]> = [
  [BOLD, '1'],
  [DIM, '2'],
  [ITALIC, '3'],
  [UNDERLINE, '4'],
  [BLINK, '5'],
  [INVERSE, '7'],
  [INVISIBLE, '8'],
  [STRIKETHROUGH, '9'],
  [OVERLINE, '53'],
];

/** A cell's rendition as three numbers, so comparing two cells' styles is cheap. */
export interface CellStyle {
  /** Colour mode bits plus the colour (palette index or 0xRRGGBB); 0 is the default colour. */
  fg: number;
  bg: number;
  flags: number;
}

export const DEFAULT_STYLE: Readonly<CellStyle> = { fg: 0, bg: 0, flags: 0 };

export function styleOf(cell: IBufferCell): CellStyle {
  return {
    fg: colorOf(cell.getFgColorMode(), cell.getFgColor()),
    bg: colorOf(cell.getBgColorMode(), cell.getBgColor()),
    flags:
      (cell.isBold() ? BOLD : 0) |
      (cell.isDim() ? DIM : 0) |
      (cell.isItalic() ? ITALIC : 0) |
      (cell.isUnderline() ? UNDERLINE : 0) |
      (cell.isBlink() ? BLINK : 0) |
      (cell.isInverse() ? INVERSE : 0) |
      (cell.isInvisible() ? INVISIBLE : 0) |
      (cell.isStrikethrough() ? STRIKETHROUGH : 0) |
      (cell.isOverline() ? OVERLINE : 0),
  };
}

// A default colour reads as mode 0 with colour -1; it is folded to 0 so "default" has one value.
function colorOf(mode: number, color: number): number {
  return mode === 0 ? 0 : mode | color;
}

export function sameStyle(a: Readonly<CellStyle>, b: Readonly<CellStyle>): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.flags === b.flags;
}

export function isDefaultStyle(style: Readonly<CellStyle>): boolean {
  return sameStyle(style, DEFAULT_STYLE);
}

/** Whether a blank cell in this style still shows something (a background, a line, inversion). */
export function marksBlank(style: Readonly<CellStyle>): boolean {
  return style.bg !== 0 || (style.flags & (INVERSE | UNDERLINE | STRIKETHROUGH | OVERLINE)) !== 0;
}

/**
 * The SGR sequence that sets exactly this style from any state: it starts with a reset, so a
 * reader never has to know what came before.
 */
export function sgrFor(style: Readonly<CellStyle>): string {
  const params = ['0'];
  for (const [flag, sgr] of FLAG_SGR) if (style.flags & flag) params.push(sgr);
  pushColor(params, style.fg, false);
  pushColor(params, style.bg, true);
  return `\x1b[${params.join(';')}m`;
}

function pushColor(params: string[], color: number, background: boolean): void {
  const mode = color & 0x3000000;
  const value = color & 0xffffff;
  if (mode === COLOR_MODE_P16) {
    // 0–7 are the normal colours (30–37 / 40–47), 8–15 the bright ones (90–97 / 100–107).
    const base = value < 8 ? (background ? 40 : 30) : background ? 100 - 8 : 90 - 8;
    params.push(String(base + value));
  } else if (mode === COLOR_MODE_P256) {
    params.push(background ? '48' : '38', '5', String(value));
  } else if (mode === COLOR_MODE_RGB) {
    params.push(
      background ? '48' : '38',
      '2',
      String(value >> 16),
      String((value >> 8) & 0xff),
      String(value & 0xff),
    );
  }
}
