/**
 * Input re-encoded for the program in a pane, as the pane's modes ask: mouse reports at the
 * tracking level and in the form it enabled, pastes bracketed or not, focus reports; and the OSC 52
 * sequence that puts a copy on the user's clipboard.
 */
import type { PaneModes } from '../../../protocol/attach';
import { PASTE_END, PASTE_START, type MouseToken } from './tokens';

export type MouseEventLike = Pick<MouseToken, 'action' | 'button' | 'shift' | 'alt' | 'ctrl'>;

/** The X10 form carries a coordinate as one byte, 32 + the 1-based cell: 223 at most. */
export const X10_MAX_CELL = 223;

const NO_BUTTON = 3;

function isWheel(button: number): boolean {
  return button >= 4 && button <= 7;
}

/** Whether the tracking level the program asked for reports this event. */
function reported(event: MouseEventLike, mouse: PaneModes['mouse']): boolean {
  if (event.action === 'release' && isWheel(event.button)) return false;
  switch (mouse) {
    case 'none':
      return false;
    case 'x10':
      return event.action === 'press';
    case 'vt200':
      return event.action !== 'motion';
    case 'drag':
      return event.action !== 'motion' || event.button !== NO_BUTTON;
    case 'any':
      return true;
  }
}

/** The button's part of the report's button byte (the X11 button less one, as the token holds it). */
function buttonCode(button: number): number {
  if (button >= 8) return 128 + (button - 8);
  if (button >= 4) return 64 + (button - 4);
  return button;
}

/**
 * A mouse event as the program in a pane asked to get it, at the pane-local cell (x, y), 0-based;
 * undefined when its tracking level does not report it or the cell is outside what the form can
 * say. The X10 form's bytes above 0x7f are returned as the characters U+0080–U+00FF: they are
 * single bytes, to be written as latin1, not UTF-8.
 */
export function encodeMouse(
  event: MouseEventLike,
  modes: Pick<PaneModes, 'mouse' | 'mouseSgr'>,
  x: number,
  y: number,
): string | undefined {
  if (!reported(event, modes.mouse) || x < 0 || y < 0) return undefined;
  // X10 mode (DECSET 9) reports no modifiers.
  const withMods = modes.mouse !== 'x10';
  const mods = withMods ? (event.shift ? 4 : 0) | (event.alt ? 8 : 0) | (event.ctrl ? 16 : 0) : 0;
  const motion = event.action === 'motion' ? 32 : 0;
  if (modes.mouseSgr) {
    const code = buttonCode(event.button) | mods | motion;
    return `\x1b[<${code};${x + 1};${y + 1}${event.action === 'release' ? 'm' : 'M'}`;
  }
  if (x + 1 > X10_MAX_CELL || y + 1 > X10_MAX_CELL) return undefined;
  // The X10 form cannot say which button was released.
  const button = event.action === 'release' ? NO_BUTTON : buttonCode(event.button);
  return '\x1b[M' + String.fromCharCode(32 + (button | mods | motion), 33 + x, 33 + y);
}

/** Paste markers removed until none is left (removing one must not make another). */
function withoutMarkers(text: string): string {
  let out = text;
  for (;;) {
    const next = out.split(PASTE_END).join('').split(PASTE_START).join('');
    if (next === out) return out;
    out = next;
  }
}

/**
 * A paste for the program in a pane: bracketed when it asked (DECSET 2004), else the bare text.
 * Markers inside the text are removed, so a paste cannot end the bracket early and have the rest
 * run as typed input.
 */
export function encodePaste(text: string, modes: Pick<PaneModes, 'bracketedPaste'>): string {
  const clean = withoutMarkers(text);
  return modes.bracketedPaste ? PASTE_START + clean + PASTE_END : clean;
}

/** A focus report (DECSET 1004) when the program asked for them. */
export function encodeFocus(focused: boolean, modes: Pick<PaneModes, 'focusEvents'>): string | undefined {
  if (!modes.focusEvents) return undefined;
  return focused ? '\x1b[I' : '\x1b[O';
}

/** OSC 52: set the clipboard of the user's terminal to `text`. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
