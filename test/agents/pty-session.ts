import { Terminal } from '@xterm/headless';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { spawn, type IPty } from 'node-pty';

/**
 * A program in a real pty whose output feeds a real `@xterm/headless` terminal, as fux and zor
 * see an agent: type into it, read its screen, wait for what it draws.
 */

export interface PtySessionOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
}

export interface WaitOptions {
  readonly timeoutMs: number;
  /** Says what was awaited, for the timeout error. */
  readonly what: string;
}

/** How often a waiter re-checks when nothing was drawn (a predicate may watch something else). */
const POLL_MS = 50;

export class PtySession {
  readonly terminal: Terminal;
  readonly exited: Promise<{ exitCode: number; signal: number | undefined }>;
  private readonly pty: IPty;
  private readonly drawListeners = new Set<() => void>();
  private hasExited = false;
  private lastOutputAt = Date.now();

  private constructor(options: PtySessionOptions) {
    // Scrollback of at least one screen: zor's detection window reaches into it.
    this.terminal = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.rows * 4,
      allowProposedApi: true,
    });
    this.terminal.loadAddon(new Unicode11Addon());
    // Without Unicode 11 widths, emoji and some symbols take one cell and the screen shears.
    this.terminal.unicode.activeVersion = '11';
    this.pty = spawn(options.file, [...options.args], {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: { ...options.env },
    });
    this.pty.onData((data) => {
      this.lastOutputAt = Date.now();
      this.terminal.write(data, () => this.notifyDrawn());
    });
    // The terminal's own replies (cursor reports, device attributes) must reach the program,
    // which otherwise waits on them.
    this.terminal.onData((reply) => {
      if (!this.hasExited) this.pty.write(reply);
    });
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        this.hasExited = true;
        this.notifyDrawn();
        resolve({ exitCode, signal });
      });
    });
  }

  static spawn(options: PtySessionOptions): PtySession {
    return new PtySession(options);
  }

  get pid(): number {
    return this.pty.pid;
  }

  /** Sends keystrokes as a user types them. */
  type(keys: string): void {
    this.pty.write(keys);
  }

  /** Resizes the terminal and the pty together, as a user dragging the window does (SIGWINCH). */
  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
    this.pty.resize(cols, rows);
  }

  /** The visible rows, right-trimmed; for predicates and for error messages. */
  viewportLines(): string[] {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) {
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return lines;
  }

  viewportText(): string {
    return this.viewportLines().join('\n');
  }

  /**
   * Resolves once `predicate` holds, checking after every parsed chunk of output and every
   * POLL_MS; rejects at the deadline with the screen in the message.
   */
  waitFor(predicate: () => boolean, options: WaitOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (error?: Error): void => {
        if (settled) return;
        settled = true;
        clearInterval(poll);
        clearTimeout(deadline);
        this.drawListeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = (): void => {
        try {
          if (predicate()) finish();
        } catch (error) {
          finish(error instanceof Error ? error : new Error(String(error)));
        }
      };
      const poll = setInterval(check, POLL_MS);
      const deadline = setTimeout(
        () =>
          finish(
            new Error(
              `timed out after ${options.timeoutMs} ms waiting for ${options.what}; screen:\n${this.viewportText()}`,
            ),
          ),
        options.timeoutMs,
      );
      this.drawListeners.add(check);
      check();
    });
  }

  /** Waits until some visible row contains `text`. */
  waitForText(text: string, timeoutMs: number): Promise<void> {
    return this.waitFor(() => this.viewportText().includes(text), { timeoutMs, what: JSON.stringify(text) });
  }

  /**
   * Resolves once the program has written nothing for `gapMs`, or after `maxMs` at the latest. A
   * capture waits for this after its condition holds, so a frame that arrived in several chunks is
   * recorded whole; a spinner that never stops drawing just costs `maxMs`.
   */
  waitForOutputPause(gapMs: number, maxMs: number): Promise<void> {
    const started = Date.now();
    return this.waitFor(
      () => {
        const now = Date.now();
        return now - this.lastOutputAt >= gapMs || now - started >= maxMs;
      },
      { timeoutMs: maxMs + 1000, what: `a ${gapMs} ms pause in output` },
    );
  }

  /** Ends the program (SIGHUP as a closing terminal would, then SIGKILL) and frees the terminal. */
  async close(): Promise<void> {
    if (!this.hasExited) {
      this.pty.kill('SIGHUP');
      const killer = setTimeout(() => {
        if (!this.hasExited) this.pty.kill('SIGKILL');
      }, 2000);
      await this.exited;
      clearTimeout(killer);
    }
    this.terminal.dispose();
  }

  private notifyDrawn(): void {
    for (const listener of [...this.drawListeners]) listener();
  }
}
