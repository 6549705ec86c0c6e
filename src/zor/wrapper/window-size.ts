/**
 * Window size with pixels. Node reads a terminal's rows and columns but not `ws_xpixel`/`ws_ypixel`,
 * and node-pty 1.1.0 always sets the pixel fields to zero, yet programs that draw images (kitty
 * graphics, sixel) size them from the pixels. So one small perl process (perl is part of every
 * Linux and macOS base system) does the two ioctls: TIOCGWINSZ on zor's terminal, TIOCSWINSZ with
 * the same four fields on the child's pty, in one step so the child sees one consistent SIGWINCH.
 * Without perl, or without a terminal, zor falls back to rows and columns through node-pty.
 *
 * At start (and after a stop) the same process also turns off output processing on zor's terminal
 * (terminal-mode.ts says why), which saves starting a second program (`stty`). It runs beside the
 * child rather than before it: starting perl was the largest single cost of zor's own start.
 */
import { spawn } from 'node:child_process';

export interface WindowSize {
  readonly rows: number;
  readonly cols: number;
  readonly xpixel: number;
  readonly ypixel: number;
}

export const DEFAULT_WINDOW_SIZE: WindowSize = { rows: 24, cols: 80, xpixel: 0, ypixel: 0 };

// TIOCGWINSZ/TIOCSWINSZ differ per platform; struct winsize is four unsigned shorts everywhere.
// The termios ioctls (TCGETS/TCSETS, TIOCGETA/TIOCSETA on macOS) differ too, and so does where
// c_oflag sits (tcflag_t is 32 bits on Linux, 64 on macOS); OPOST is bit 0 on both. Plain ioctls
// rather than the POSIX module, which takes perl twice as long to start.
const COPY_WINSIZE = String.raw`
use strict;
use Fcntl;
my $darwin = $^O eq 'darwin';
my ($get, $set) = $darwin ? (0x40087468, 0x80087467) : (0x5413, 0x5414);
if (@ARGV > 1) {
  my ($tget, $tset, $at, $format) = $darwin ? (0x40487413, 0x80487414, 8, 'Q') : (0x5401, 0x5402, 4, 'L');
  my $termios = "\0" x 128;
  ioctl(STDIN, $tget, $termios) or exit 5;
  my $width = length(pack($format, 0));
  my $oflag = unpack($format, substr($termios, $at, $width));
  substr($termios, $at, $width) = pack($format, $oflag & ~1);
  ioctl(STDIN, $tset, $termios) or exit 5;
}
my $ws = "\0" x 8;
ioctl(STDIN, $get, $ws) or exit 2;
if (@ARGV) {
  sysopen(my $pty, $ARGV[0], O_RDWR | O_NOCTTY) or exit 3;
  ioctl($pty, $set, $ws) or exit 4;
}
print join(' ', unpack('S4', $ws));
`;

function parseSize(text: string): WindowSize | undefined {
  const fields = text.trim().split(' ').map(Number);
  if (fields.length !== 4 || !fields.every(Number.isInteger)) return undefined;
  const [rows, cols, xpixel, ypixel] = fields as [number, number, number, number];
  return rows > 0 && cols > 0 ? { rows, cols, xpixel, ypixel } : undefined;
}

/**
 * Reads the size of the terminal on `terminalFd` (0 or 1) and, when `ptyPath` is given, applies it
 * to that pty; with `rawOutput` (which needs `terminalFd` 0) it first turns off the terminal's
 * output processing. `undefined` when the descriptor is not a terminal or perl is unavailable, and
 * then output processing was not changed either.
 */
export function copyWindowSize(
  terminalFd: 0 | 1,
  ptyPath?: string,
  rawOutput = false,
): Promise<WindowSize | undefined> {
  const args = ptyPath === undefined ? [] : rawOutput ? [ptyPath, 'raw-output'] : [ptyPath];
  return new Promise((resolve) => {
    const perl = spawn('perl', ['-e', COPY_WINSIZE, ...args], { stdio: [terminalFd, 'pipe', 'ignore'] });
    let output = '';
    perl.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
    perl.on('error', () => resolve(undefined));
    perl.on('close', (status) => resolve(status === 0 ? parseSize(output) : undefined));
  });
}
