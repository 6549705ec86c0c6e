/**
 * zor's own terminal in raw mode while it runs, and exactly as it was afterwards. zor puts the
 * terminal in raw mode once and then passes everything through; whatever mode the child wants is
 * set on the child's own pty, never here.
 */
import { spawnSync } from 'node:child_process';
import type { ReadStream } from 'node:tty';

export class RawTerminalMode {
  private readonly restoreOnExit = (): void => this.restore();

  constructor(
    private readonly stdin: NodeJS.ReadStream & Partial<Pick<ReadStream, 'setRawMode' | 'isRaw'>>,
  ) {}

  /** Whether there is a terminal to put in raw mode (stdin may be a pipe). */
  get applies(): boolean {
    return this.stdin.isTTY === true;
  }

  /**
   * Raw input. Node's raw mode keeps output processing (OPOST, ONLCR), so the terminal would turn
   * the child's "\r\n" into "\r\r\n"; a wrapper passes bytes exactly, so the caller turns that
   * off right after (window-size.ts does it in the process it starts anyway, else
   * `rawOutput`). setRawMode(false) puts back the mode saved before the first setRawMode, OPOST
   * included, so this must come first.
   */
  enter(): void {
    if (!this.applies) return;
    this.stdin.setRawMode?.(true);
    // process.exit and an uncaught exception both pass through 'exit': the terminal is never left raw.
    process.off('exit', this.restoreOnExit);
    process.on('exit', this.restoreOnExit);
  }

  /** Output processing off, as cfmakeraw does, with stty. */
  rawOutput(): void {
    if (this.applies) spawnSync('stty', ['-opost'], { stdio: [0, 'ignore', 'ignore'] });
  }

  restore(): void {
    if (this.applies && this.stdin.isRaw === true) this.stdin.setRawMode?.(false);
    process.off('exit', this.restoreOnExit);
  }
}
