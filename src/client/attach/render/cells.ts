/**
 * unblessed's screen buffer: rows of `[attr, ch]` cells. A wide glyph sits in one cell and the
 * next cell holds WIDE_RIGHT (unblessed's own padding character for the right half of a wide
 * glyph, which its widgets write in fullUnicode mode); the compositor writes pane cells the same
 * way, so widths come from the cells themselves, never from a width table that could disagree
 * with the server's.
 */
export type ScreenCell = [attr: number, ch: string];
export type ScreenLine = ScreenCell[] & { dirty?: boolean };

export const WIDE_RIGHT = '\x03';
