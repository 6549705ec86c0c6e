import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FsFailure, makeDirs, systemReason } from '../../src/fs-failure';
import { readOnlyDir, readOnlyDirsUnavailable, type ReadOnlyDir } from '../helpers/read-only-dir';

let dir: string;
let readOnly: ReadOnlyDir | undefined;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-fs-failure-'))));
afterEach(() => {
  readOnly?.release();
  readOnly = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const unavailable = readOnlyDirsUnavailable();
if (unavailable) console.warn(`skipping the read-only directory cases: ${unavailable}`);
const withReadOnlyDirs = unavailable ? test.skip : test;

function failure(run: () => void): FsFailure {
  try {
    run();
  } catch (error) {
    if (error instanceof FsFailure) return error;
    throw error;
  }
  throw new Error('it did not fail');
}

test("the system's reason is what Node's message says between the code and the call", () => {
  expect(
    systemReason(Object.assign(new Error("EROFS: read-only file system, open '/x/y'"), { code: 'EROFS' })),
  ).toBe('read-only file system');
  expect(systemReason(new Error("ENOENT: no such file or directory, rename '/a' -> '/b'"))).toBe(
    'no such file or directory',
  );
  expect(systemReason(new Error('something else'))).toBe('something else');
});

test('makeDirs creates the missing directories with the mode, and leaves an existing one as it is', () => {
  const deep = path.join(dir, 'a', 'b', 'c');
  makeDirs(deep, 0o700);
  expect(fs.statSync(deep).isDirectory()).toBe(true);
  expect(fs.statSync(path.join(dir, 'a')).mode & 0o777).toBe(0o700);
  makeDirs(deep, 0o700);
});

test('makeDirs names the file that is in the way', () => {
  fs.writeFileSync(path.join(dir, 'file'), '');
  const f = failure(() => makeDirs(path.join(dir, 'file', 'sub'), 0o700));
  expect(f.message).toBe(`cannot create ${path.join(dir, 'file')}: file already exists`);
});

withReadOnlyDirs(
  'in a read-only directory makeDirs says which directory it could not create and why (not ENOENT)',
  () => {
    readOnly = readOnlyDir();
    const ro = readOnly.dir;
    const f = failure(() => makeDirs(path.join(ro, 'state', 'fux'), 0o700));
    expect(f.message).toBe(`cannot create ${path.join(ro, 'state')}: ${readOnly.reason}`);
    expect(f.code).not.toBe('ENOENT');
  },
);
