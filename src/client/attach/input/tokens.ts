/**
 * What the input decoder makes of the user's terminal input. Every token but `paste` keeps the
 * exact text it was decoded from in `raw` (paste keeps it too, markers included), so the raw texts
 * of a run of tokens concatenate to the input: nothing is lost or reordered.
 */
import type { KeyName } from '../../../protocol/keys';

export interface KeyToken {
  kind: 'key';
  raw: string;
  /** Set when the press is recognised. */
  key?: KeyName;
  /** Kitty's event type, when the terminal reports it; absent for a press. */
  event?: 'repeat' | 'release';
}

export type MouseAction = 'press' | 'release' | 'motion';
export type WheelDirection = 'up' | 'down' | 'left' | 'right';

export interface MouseToken {
  kind: 'mouse';
  raw: string;
  action: MouseAction;
  /**
   * The X11 button less one: 0 left, 1 middle, 2 right, 3 none (motion with no button held, or an
   * X10-form release, which does not say which), 4–7 wheel up/down/left/right, 8–11 extra buttons.
   */
  button: number;
  /** Set for wheel buttons (4–7). */
  wheel?: WheelDirection;
  /** Terminal cell, 0-based. */
  x: number;
  y: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

export interface PasteToken {
  kind: 'paste';
  /** The pasted text, markers removed. */
  text: string;
  /** The input it came from: the markers and the text (no end marker if the paste was cut off). */
  raw: string;
}

export interface FocusToken {
  kind: 'focus';
  raw: string;
  focused: boolean;
}

/** Input the decoder does not recognise (e.g. a terminal's reply): pass it on unchanged. */
export interface BytesToken {
  kind: 'bytes';
  raw: string;
}

export type Token = KeyToken | MouseToken | PasteToken | FocusToken | BytesToken;

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
