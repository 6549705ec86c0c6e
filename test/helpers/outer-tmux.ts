import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { until } from './home';

/**
 * tmux as the user's terminal: a private tmux server (its own socket in the test's dir, no config)
 * with one window of a fixed size, in which a test runs `fux` and drives it with send-keys, then
 * reads what a user would see with capture-pane. Several windows make several terminals.
 */
export class OuterTmux {
  private readonly socket: string;

  constructor(
    dir: string,
    private readonly env: Record<string, string>,
  ) {
    this.socket = path.join(dir, 'outer-tmux.sock');
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, '-f', '/dev/null', ...args], {
      env: this.env,
      encoding: 'utf8',
      timeout: 10_000,
      // tmux's complaints (no server yet, at kill) are the caller's to judge, not the test log's.
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** A new terminal (window) of cols×rows running `command`; returns its target name. */
  open(name: string, cols: number, rows: number, command: string): string {
    const first = !this.hasServer();
    if (first) {
      this.tmux([
        'new-session',
        '-d',
        '-s',
        'outer',
        '-n',
        name,
        '-x',
        String(cols),
        '-y',
        String(rows),
        command,
      ]);
      this.tmux(['set-option', '-g', 'status', 'off']);
      this.tmux(['set-option', '-g', 'remain-on-exit', 'on']);
      this.tmux(['set-option', '-g', 'escape-time', '0']);
    } else {
      this.tmux(['new-window', '-d', '-t', 'outer', '-n', name, command]);
    }
    this.tmux(['resize-window', '-t', `outer:${name}`, '-x', String(cols), '-y', String(rows)]);
    return `outer:${name}`;
  }

  private hasServer(): boolean {
    try {
      this.tmux(['has-session', '-t', 'outer']);
      return true;
    } catch {
      return false;
    }
  }

  /** Type into a terminal: tmux key names (C-a, Enter, Up) or, with `literal`, text as it is. */
  keys(target: string, keys: string[], literal = false): void {
    this.tmux(['send-keys', '-t', target, ...(literal ? ['-l'] : []), ...keys]);
  }

  /**
   * What the terminal shows: one line per row; with `escapes`, SGR sequences for the cells'
   * attributes (tmux writes each as a change from the cell before, so a capture of `rows` starts
   * from the default rendition, whatever the row above holds).
   */
  screen(target: string, escapes = false, rows?: { from: number; to: number }): string[] {
    const range = rows ? ['-S', String(rows.from), '-E', String(rows.to)] : [];
    const out = this.tmux(['capture-pane', '-p', '-N', '-t', target, ...(escapes ? ['-e'] : []), ...range]);
    return out.replace(/\n$/, '').split('\n');
  }

  cursor(target: string): { x: number; y: number } {
    const [x, y] = this.tmux(['display-message', '-p', '-t', target, '#{cursor_x} #{cursor_y}'])
      .trim()
      .split(' ');
    return { x: Number(x), y: Number(y) };
  }

  /** The pid of the program running in the terminal (fux itself, started without a shell). */
  pid(target: string): number {
    return Number(this.tmux(['display-message', '-p', '-t', target, '#{pane_pid}']).trim());
  }

  /** Whether the program in the terminal has exited (the window remains, showing its last screen). */
  dead(target: string): boolean {
    return this.tmux(['display-message', '-p', '-t', target, '#{pane_dead}']).trim() === '1';
  }

  /** Wait until the screen satisfies `test`; the error shows the last screen. */
  async waitFor(
    target: string,
    test: (lines: string[]) => boolean,
    what: string,
    timeoutMs = 15_000,
  ): Promise<string[]> {
    let last: string[] = [];
    try {
      return await until(
        () => {
          last = this.screen(target);
          return test(last) ? last : undefined;
        },
        timeoutMs,
        what,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- screen ---\n${last.join('\n')}`, { cause: err });
    }
  }

  /** Any other tmux command, e.g. `set-option -g set-clipboard on`. */
  command(args: string[]): string {
    return this.tmux(args);
  }

  /** tmux's newest paste buffer (what an OSC 52 copy set, with set-clipboard on), if any. */
  buffer(): string | undefined {
    try {
      return this.tmux(['show-buffer']);
    } catch {
      return undefined;
    }
  }

  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // not running
    }
  }
}
