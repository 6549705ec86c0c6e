import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NotUtf8, UnreadableFile, decodeUtf8, readRegularFile, readUtf8File } from '../../src/regular-file';

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-regular-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function refusal(read: () => unknown): UnreadableFile {
  try {
    read();
  } catch (error) {
    if (error instanceof UnreadableFile) return error;
    throw error;
  }
  throw new Error('the file was read');
}

describe('reading a regular file', () => {
  test('a file is read whole, through a symlink too, with what fstat says of it', () => {
    const file = path.join(dir, 'a.toml');
    fs.writeFileSync(file, 'notify = true\n', { mode: 0o600 });
    fs.symlinkSync(file, path.join(dir, 'link.toml'));
    const { bytes, stats } = readRegularFile(path.join(dir, 'link.toml'), 1024);
    expect(bytes.toString()).toBe('notify = true\n');
    expect(stats.mode & 0o777).toBe(0o600);
  });

  test('a FIFO is refused at once, without waiting for a writer', () => {
    const fifo = path.join(dir, 'config.toml');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(refusal(() => readRegularFile(fifo, 1024)).message).toBe(
      `${fifo}: a FIFO (named pipe), not a regular file`,
    );
  });

  test('a directory, a device and a symlink to a device are refused for what they are', () => {
    expect(refusal(() => readRegularFile(dir, 1024)).reason).toMatch(/^a directory, not a regular file/);
    expect(refusal(() => readRegularFile('/dev/null', 1024)).reason).toMatch(/^a character device/);
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero'));
    expect(refusal(() => readRegularFile(path.join(dir, 'zero'), 1024)).reason).toMatch(
      /^a character device/,
    );
  });

  test('a file over the limit is refused with its size; one at the limit is read', () => {
    const file = path.join(dir, 'big');
    fs.writeFileSync(file, Buffer.alloc(1025, 'x'));
    expect(refusal(() => readRegularFile(file, 1024)).reason).toBe(
      '1025 bytes, over the 1024-byte limit for this file',
    );
    fs.truncateSync(file, 1024);
    expect(readRegularFile(file, 1024).bytes).toHaveLength(1024);
  });

  test('a missing file is the system error, for the caller to decide what that means', () => {
    expect(() => readRegularFile(path.join(dir, 'none'), 1024)).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});

describe('text files', () => {
  test('UTF-8 is decoded as written', () => {
    const file = path.join(dir, 'ok');
    fs.writeFileSync(file, 'title = "café ☕"\n');
    expect(readUtf8File(file, 1024)).toBe('title = "café ☕"\n');
  });

  test('bytes that are not UTF-8 are refused with the first line that has them', () => {
    const bytes = Buffer.concat([
      Buffer.from('a = 1\nb = "ok é"\nc = "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\nd = "\xff"\n', 'latin1'),
    ]);
    const error = refusal(() => decodeUtf8(bytes, '/x.toml'));
    expect(error).toBeInstanceOf(NotUtf8);
    expect((error as NotUtf8).line).toBe(3);
    expect(error.message).toBe('/x.toml: line 3 is not valid UTF-8; save the file as UTF-8');
  });

  test('a sequence cut short at the end of the last line is found there', () => {
    const bytes = Buffer.concat([Buffer.from('a = 1\nb = "'), Buffer.from([0xe2, 0x98])]);
    expect((refusal(() => decodeUtf8(bytes, '/x')) as NotUtf8).line).toBe(2);
  });
});
