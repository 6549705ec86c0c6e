/**
 * Reading a file whose name is ours but whose content anyone with the user's rights put there (the
 * config, rule files, the allow-list, the endpoint key, the journal). Only a regular file is read:
 * opening a FIFO for reading waits for a writer, and the whole process with it; a device can have
 * effects of its own, or never end (/dev/zero). And only up to a limit, so a huge file is refused
 * instead of filling memory. Failures to open or read pass through as the system's errors (ENOENT:
 * the caller decides what a missing file means).
 */
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';

/** A file that is there but is not one to read: `reason` says what it is instead (the caller knows what to do about it). */
export class UnreadableFile extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'UnreadableFile';
  }
}

/** A text file with bytes that are not UTF-8, at `line` (1-based), the first such line. */
export class NotUtf8 extends UnreadableFile {
  constructor(
    file: string,
    readonly line: number,
  ) {
    super(file, `line ${line} is not valid UTF-8; save the file as UTF-8`);
    this.name = 'NotUtf8';
  }
}

function kindOf(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'something else';
}

function assertRegular(file: string, stats: fs.Stats): void {
  if (!stats.isFile()) {
    throw new UnreadableFile(file, `${kindOf(stats)}, not a regular file`);
  }
}

function tooLarge(file: string, bytes: number | undefined, maxBytes: number): UnreadableFile {
  const size = bytes === undefined ? '' : `${bytes} bytes, `;
  return new UnreadableFile(file, `${size}over the ${maxBytes}-byte limit for this file`);
}

/** The bytes of `file` (symlinks followed) and what fstat says of it, if it is a regular file of at most `maxBytes`. */
export function readRegularFile(file: string, maxBytes: number): { bytes: Buffer; stats: fs.Stats } {
  // Checked before the open, so that a device or FIFO is never opened at all.
  assertRegular(file, fs.statSync(file));
  // Non-blocking, so that a FIFO put in its place since cannot hold the open up either.
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  try {
    const stats = fs.fstatSync(fd);
    assertRegular(file, stats);
    if (stats.size > maxBytes) throw tooLarge(file, stats.size, maxBytes);
    // One read of the size fstat gave (plus a byte, to see the end), then more only if it grew.
    const chunks: Buffer[] = [];
    let total = 0;
    let want = stats.size + 1;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(file, undefined, maxBytes);
      want = 64 * 1024;
    }
    return { bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** `bytes` as text; bytes that are not UTF-8 are refused (a lenient decode would turn them into U+FFFD unseen). */
export function decodeUtf8(bytes: Buffer, file: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // A newline byte is never inside a multi-byte sequence, so each line can be checked alone; when
  // every line before the last is good, the bad bytes are in the last.
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1 || !isUtf8(bytes.subarray(start, end))) throw new NotUtf8(file, line);
    start = end + 1;
  }
}

/** The text of `file`, a regular file of at most `maxBytes` of UTF-8. */
export function readUtf8File(file: string, maxBytes: number): string {
  return decodeUtf8(readRegularFile(file, maxBytes).bytes, file);
}
