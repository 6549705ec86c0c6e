import type { Terminal } from '@xterm/headless';
import { csiParamValue, type CsiParam } from './csi-param';

/**
 * Whether the normal screen's scroll region (DECSTBM) is the whole screen, followed from the
 * sequences that change it, since xterm does not expose it. Compacting the history changes
 * xterm's scrollback option, and xterm resets both screens' regions whenever it does (as on a
 * resize); with a full-screen region that changes nothing, with a program's own region (apt's
 * progress bar keeps the last row) it would break the program's output, so compaction waits.
 */
export class NormalScrollRegion {
  private wholeScreen = true;

  constructor(private readonly terminal: Terminal) {
    // Each handler returns false so that xterm's own handler still runs after it.
    terminal.parser.registerCsiHandler({ final: 'r' }, (params) => {
      this.regionSet(params);
      return false;
    });
    // DECSTR (soft reset) and RIS (full reset) both restore the whole-screen region.
    terminal.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
      if (this.onNormalScreen()) this.wholeScreen = true;
      return false;
    });
    terminal.parser.registerEscHandler({ final: 'c' }, () => {
      this.wholeScreen = true;
      return false;
    });
  }

  get isWholeScreen(): boolean {
    return this.wholeScreen;
  }

  /** A resize resets every region to the whole screen. */
  resized(): void {
    this.wholeScreen = true;
  }

  /** DECSTBM as xterm applies it: defaults of 1 and the last row, and no change unless top < bottom. */
  private regionSet(params: CsiParam[]): void {
    if (!this.onNormalScreen()) return;
    const rows = this.terminal.rows;
    const top = csiParamValue(params[0]) || 1;
    let bottom = params.length < 2 ? rows : csiParamValue(params[1]);
    if (bottom > rows || bottom === 0) bottom = rows;
    if (bottom > top) this.wholeScreen = top === 1 && bottom === rows;
  }

  private onNormalScreen(): boolean {
    return this.terminal.buffer.active.type === 'normal';
  }
}
