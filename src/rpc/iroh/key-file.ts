import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretKey } from './iroh';
import { FsFailure, makeDirs } from '../../fs-failure';
import { UnreadableFile, readRegularFile } from '../../regular-file';

/** A key file that is not what we wrote (wrong size, open to others): the message says what to do. */
export class KeyFileError extends Error {}

const KEY_BYTES = 32;
/** Enough to tell a key file of the wrong size by its size; more is not read. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * The endpoint's secret key, kept in `file` (mode 0600, in a directory created 0700) and created on
 * first use. The key is the endpoint's identity: peers allow it by the id derived from it, so it
 * must survive restarts and stay private.
 *
 * Two processes may start at once (a server and a client of the same user); the file appears with
 * its content already in it (written aside, then hard-linked into place, which fails if another
 * process got there first), so both end up with the one key and neither reads a half-written file.
 */
export function loadOrCreateSecretKey(file: string): SecretKey {
  const existing = readKey(file);
  if (existing) return existing;
  const key = SecretKey.generate();
  const aside = `${file}.${process.pid}.new`;
  try {
    makeDirs(path.dirname(file), 0o700);
    fs.writeFileSync(aside, Buffer.from(key.toBytes()), { mode: 0o600 });
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return readKey(file)!; // another process created it first: theirs is the identity
    }
    return key;
  } catch (error) {
    if (error instanceof KeyFileError) throw error; // the other process's file is not a key
    // A directory that could not be made names itself; any other step failed to write the key file.
    const failure = error instanceof FsFailure ? error : new FsFailure('write', file, error);
    throw new KeyFileError(`${failure.message}; the endpoint's identity (its key) is kept there`);
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** The key in `file`, or undefined if there is no such file. */
export function readKey(file: string): SecretKey | undefined {
  let bytes: Buffer;
  let mode: number;
  try {
    ({
      bytes,
      stats: { mode },
    } = readRegularFile(file, MAX_KEY_FILE_BYTES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof UnreadableFile) {
      throw new KeyFileError(`${error.message}; move it away and a new identity is created`);
    }
    throw error;
  }
  if ((mode & 0o077) !== 0) {
    throw new KeyFileError(
      `${file} holds a secret key but others can read it (mode ${(mode & 0o777).toString(8)}); run \`chmod 600 ${file}\``,
    );
  }
  if (bytes.length !== KEY_BYTES) {
    throw new KeyFileError(
      `${file} is not a key file (${bytes.length} bytes, not ${KEY_BYTES}); move it away and a new identity is created`,
    );
  }
  return SecretKey.fromBytes(Array.from(bytes));
}
