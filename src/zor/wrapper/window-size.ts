/**
 * Window size with pixels. Node reads a terminal's rows and columns but not `ws_xpixel`/`ws_ypixel`,
 * and node-pty 1.1.0 always sets the pixel fields to zero, yet programs that draw images (kitty
 * graphics, sixel) size them from the pixels. So one small perl process (perl is part of every
 * Linux and macOS base system) does the two ioctls: TIOCGWINSZ on zor's terminal, TIOCSWINSZ with
 * the same four fields on the child's pty, in one step so the child sees one consistent SIGWINCH.
 * Without perl, or without a terminal, zor falls back to rows and columns through node-pty.
 */
import { spawnSync } from 'node:child_process';

export interface WindowSize {
  readonly rows: number;
  readonly cols: number;
  readonly xpixel: number;
  readonly ypixel: number;
}

export const DEFAULT_WINDOW_SIZE: WindowSize = { rows: 24, cols: 80, xpixel: 0, ypixel: 0 };

// TIOCGWINSZ/TIOCSWINSZ differ per platform; struct winsize is four unsigned shorts everywhere.
const COPY_WINSIZE = String.raw`
use strict;
use Fcntl;
my ($get, $set) = $^O eq 'darwin' ? (0x40087468, 0x80087467) : (0x5413, 0x5414);
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
 * to that pty. `undefined` when the descriptor is not a terminal or perl is unavailable.
 */
export function copyWindowSize(terminalFd: 0 | 1, ptyPath?: string): WindowSize | undefined {
  const result = spawnSync('perl', ['-e', COPY_WINSIZE, ...(ptyPath === undefined ? [] : [ptyPath])], {
    stdio: [terminalFd, 'pipe', 'ignore'],
    encoding: 'utf8',
  });
  return result.status === 0 ? parseSize(result.stdout) : undefined;
}
