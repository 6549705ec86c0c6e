import type { PaneCursor } from '../../../protocol/attach';
import type { TerminalPosition } from './draw';

/** Where the outer terminal's cursor should be after a frame, in screen cells (undefined: hidden). */
export interface CursorTarget {
  x: number;
  y: number;
  shape: PaneCursor['shape'];
  blink: boolean;
}

/** DECSCUSR's parameter for a shape: block 2/1, underline 4/3, bar 6/5 (steady/blinking). */
export function shapeCode(shape: PaneCursor['shape'], blink: boolean): number {
  const steady = shape === 'block' ? 2 : shape === 'underline' ? 4 : 6;
  return blink ? steady - 1 : steady;
}

/**
 * The outer terminal's cursor as fux last set it, so a frame emits only what changed. fux
 * cannot ask the terminal for its cursor shape, so it takes the user's to be a steady block (what
 * a pane that never set one reports): a pane that never sets a shape never changes the user's,
 * and `restore` puts back the terminal's own default (DECSCUSR 0) only if fux changed it.
 */
export class CursorState {
  private visible = false;
  private code = shapeCode('block', false);
  private changedShape = false;

  /** The terminal hides the cursor on entering (unblessed's start-up sequence does). */
  constructor(visible = false) {
    this.visible = visible;
  }

  /** The sequences that put the cursor at `target` (or hide it); `at` is where drawing left it. */
  update(target: CursorTarget | undefined, at: TerminalPosition): string {
    let out = '';
    if (!target) {
      if (this.visible) out += '\x1b[?25l';
      this.visible = false;
      return out;
    }
    if (at.x !== target.x || at.y !== target.y) {
      out += target.x === 0 ? `\x1b[${target.y + 1}H` : `\x1b[${target.y + 1};${target.x + 1}H`;
      at.x = target.x;
      at.y = target.y;
    }
    const code = shapeCode(target.shape, target.blink);
    if (code !== this.code) {
      out += `\x1b[${code} q`;
      this.code = code;
      this.changedShape = true;
    }
    if (!this.visible) out += '\x1b[?25h';
    this.visible = true;
    return out;
  }

  /** Shown, in the terminal's default shape: how fux leaves it. */
  restore(): string {
    let out = this.changedShape ? '\x1b[0 q' : '';
    if (!this.visible) out += '\x1b[?25h';
    this.visible = true;
    this.changedShape = false;
    this.code = shapeCode('block', false);
    return out;
  }
}
