/**
 * Starting the wrapped command: on the native relay when there is one (native-child.ts), else on
 * node-pty with zor writing stdout (child-pty.ts, StdoutPassthrough). Either way the wrapper gets
 * the same things: the child, the relay that hands its output to the parser, the child's size, and
 * how to copy the terminal's size to it again.
 */
import { findRelay, NativeChild } from './native-child';
import { NativePassthrough, OutputRelay, StdoutPassthrough, type PauseReason } from './output-relay';
import type { RawTerminalMode } from './terminal-mode';
import { copyWindowSize, DEFAULT_WINDOW_SIZE, type WindowSize } from './window-size';

/** The child as the wrapper drives it, on either path. */
export interface WrappedChild {
  readonly pid: number;
  readonly exited: Promise<{ readonly code: number | null; readonly signal: number | null }>;
  onOutput(listener: (chunk: Buffer) => void): void;
  write(data: Buffer | string): void;
  kill(signal: NodeJS.Signals): void;
  pause(): void;
  resume(): void;
}

export interface StartedChild {
  readonly child: WrappedChild;
  readonly relay: OutputRelay;
  /** The child's size as it starts. */
  readonly size: WindowSize;
  /** The native relay's path, or undefined on the node-pty path. */
  readonly native: string | undefined;
  /**
   * Copies the terminal's size (with pixels where possible) to the child, first turning the
   * terminal's output processing off again with `rawOutput`; resolves with the size.
   */
  copySize(rawOutput: boolean): Promise<WindowSize>;
  /** After the child's exit and zor's last bytes: lets the relay go. */
  close(): Promise<void>;
  /** Output bytes the parser was not given because the relay cut them (after the exit; 0 on node-pty). */
  leftOut(): number;
}

/** The terminal zor's own size comes from: stdin when it is one, else stdout. */
function terminalFd(): 0 | 1 | undefined {
  if (process.stdin.isTTY) return 0;
  if (process.stdout.isTTY) return 1;
  return undefined;
}

function rowsAndCols(fd: 0 | 1 | undefined): WindowSize {
  if (fd === undefined || !process.stdout.isTTY) return DEFAULT_WINDOW_SIZE;
  const [cols, rows] = process.stdout.getWindowSize();
  return cols > 0 && rows > 0 ? { rows, cols, xpixel: 0, ypixel: 0 } : DEFAULT_WINDOW_SIZE;
}

/** The environment node-pty gives a child (its _sanitizeEnv and TERM), so both paths start alike. */
function ptyEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const dropped = new Set(['TMUX', 'TMUX_PANE', 'STY', 'WINDOW', 'WINDOWID', 'TERMCAP', 'COLUMNS', 'LINES']);
  const clean = Object.fromEntries(Object.entries(env).filter(([name]) => !dropped.has(name)));
  clean.TERM = env.TERM !== undefined && env.TERM !== '' ? env.TERM : 'xterm';
  return clean;
}

/**
 * Starts `file args…`. `setPaused` stops and restarts reading the child; on the node-pty path the
 * caller copies the size once at start (`copySize`), which perl does beside the child.
 */
export async function startChild(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  terminalMode: RawTerminalMode,
  setPaused: (reason: PauseReason, paused: boolean) => void,
): Promise<StartedChild> {
  const fd = terminalFd();
  const relayPath = findRelay(process.env);
  const native =
    relayPath === undefined
      ? undefined
      : await NativeChild.start({
          relay: relayPath,
          file,
          args,
          env: ptyEnv(env),
          terminalFd: fd,
          rawOutput: terminalMode.applies,
          size: DEFAULT_WINDOW_SIZE,
        });
  if (native !== undefined) {
    return {
      child: native,
      relay: new OutputRelay(new NativePassthrough((text) => native.inject(text)), setPaused),
      size: native.size,
      native: relayPath,
      copySize: (rawOutput) => {
        if (rawOutput) native.rawOutput();
        return native.copySize();
      },
      close: () => native.close(),
      leftOut: () => native.leftOut,
    };
  }
  const size = rowsAndCols(fd);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node-pty's native module loads only on this path
  const { ChildPty } = require('./child-pty') as typeof import('./child-pty');
  const child = new ChildPty(file, args, { cols: size.cols, rows: size.rows, cwd: process.cwd(), env });
  const passthrough = new StdoutPassthrough(setPaused);
  return {
    child,
    relay: new OutputRelay(passthrough, setPaused),
    size,
    native: undefined,
    copySize: (rawOutput) => {
      const copied = (async (): Promise<WindowSize> => {
        const ptyPath = child.ptyPath;
        // One ioctl with pixels when perl can do it; otherwise rows and columns through node-pty.
        const size =
          fd !== undefined && ptyPath !== undefined
            ? await copyWindowSize(fd, ptyPath, rawOutput)
            : undefined;
        if (size !== undefined) return size;
        if (rawOutput) terminalMode.rawOutput();
        const fallback = rowsAndCols(fd);
        child.resize(fallback.cols, fallback.rows);
        return fallback;
      })();
      // Until output processing is off, output would not reach the terminal byte for byte.
      if (rawOutput) passthrough.holdUntil(copied);
      return copied;
    },
    close: () => Promise.resolve(),
    leftOut: () => 0,
  };
}
