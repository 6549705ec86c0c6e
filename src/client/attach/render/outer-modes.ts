import type { PaneModes } from '../../../protocol/attach';

/**
 * The outer terminal's input modes. fux always wants mouse drags in SGR form (clicks focus,
 * Shift-drag selects, the wheel scrolls), bracketed paste and focus reports; the modes that
 * change how keys are encoded follow the focused pane, so a program's keys arrive from the
 * terminal already in the form it asked for and pass through unchanged.
 */
export class OuterModes {
  private appCursor = false;
  private appKeypad = false;
  private anyMotion = false;
  /** The kitty keyboard flags fux pushed on the terminal's stack (0: none pushed). */
  private kitty = 0;

  /**
   * On start: the always-on modes, and normal cursor keys and keypad (unblessed's start-up
   * sequence sets application cursor keys and keypad, `ESC[?1h ESC=`, which no pane asked for).
   */
  enter(): string {
    return '\x1b[?1l\x1b>\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h';
  }

  /** Mirror a pane's modes (undefined: a pane that asked for nothing). */
  follow(modes: PaneModes | undefined): string {
    let out = '';
    const appCursor = modes?.appCursor ?? false;
    if (appCursor !== this.appCursor) out += appCursor ? '\x1b[?1h' : '\x1b[?1l';
    this.appCursor = appCursor;
    const appKeypad = modes?.appKeypad ?? false;
    if (appKeypad !== this.appKeypad) out += appKeypad ? '\x1b=' : '\x1b>';
    this.appKeypad = appKeypad;
    const anyMotion = modes?.mouse === 'any';
    // Mouse tracking modes replace one another, and resetting 1003 stops all tracking: go back to 1002.
    if (anyMotion !== this.anyMotion) out += anyMotion ? '\x1b[?1003h' : '\x1b[?1003l\x1b[?1002h';
    this.anyMotion = anyMotion;
    const kitty = Math.max(0, modes?.kittyKeyboard ?? 0);
    if (kitty !== this.kitty) {
      if (this.kitty > 0) out += '\x1b[<u';
      if (kitty > 0) out += `\x1b[>${kitty}u`;
      this.kitty = kitty;
    }
    return out;
  }

  /** Everything back as it was before fux started (kitty flags popped before leaving the alternate screen). */
  leave(): string {
    let out = '';
    if (this.kitty > 0) out += '\x1b[<u';
    if (this.anyMotion) out += '\x1b[?1003l';
    out += '\x1b[?1002l\x1b[?1006l\x1b[?2004l\x1b[?1004l';
    if (this.appCursor) out += '\x1b[?1l';
    if (this.appKeypad) out += '\x1b>';
    this.kitty = 0;
    this.anyMotion = false;
    this.appCursor = false;
    this.appKeypad = false;
    return out;
  }
}
