import { spawnSync } from 'node:child_process';

// node-pty cannot set pixel sizes; tests set a pty's full struct winsize through perl, as zor does.
const SET_WINSIZE = String.raw`
use strict;
use Fcntl;
my $set = $^O eq 'darwin' ? 0x80087467 : 0x5414;
my ($path, @size) = @ARGV;
sysopen(my $pty, $path, O_RDWR | O_NOCTTY) or exit 3;
ioctl($pty, $set, pack('S4', @size)) or exit 4;
`;

export function setPtySize(
  ptyPath: string,
  rows: number,
  cols: number,
  xpixel: number,
  ypixel: number,
): void {
  const result = spawnSync('perl', ['-e', SET_WINSIZE, ptyPath, ...[rows, cols, xpixel, ypixel].map(String)]);
  if (result.status !== 0) throw new Error(`could not set the size of ${ptyPath}`);
}

/** The pty's slave path: node-pty's UnixTerminal has a `ptsName` getter its typings leave out. */
export function ptsName(terminal: object): string {
  const name = (terminal as { ptsName?: unknown }).ptsName;
  if (typeof name !== 'string') throw new Error('node-pty did not expose ptsName');
  return name;
}
