import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertRunnable } from '../../src/server/pane/program-lookup';

describe('checking a command before it is spawned', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fux-lookup-'));
    mkdirSync(path.join(dir, 'bin'));
    mkdirSync(path.join(dir, 'locked'));
    writeFileSync(path.join(dir, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(path.join(dir, 'locked', 'tool'), '#!/bin/sh\n', { mode: 0o644 });
    writeFileSync(path.join(dir, 'locked', 'only-here'), '#!/bin/sh\n', { mode: 0o644 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const env = (searchPath: string): Record<string, string> => ({ PATH: searchPath });

  test('accepts a program found on the PATH it is given', () => {
    expect(() => assertRunnable(['tool'], dir, env(path.join(dir, 'bin')))).not.toThrow();
  });

  test('skips a match it may not execute when a later PATH entry has one it may', () => {
    const searchPath = `${path.join(dir, 'locked')}:${path.join(dir, 'bin')}`;
    expect(() => assertRunnable(['tool'], dir, env(searchPath))).not.toThrow();
  });

  test('says permission denied when the only match is not executable', () => {
    expect(() => assertRunnable(['only-here'], dir, env(path.join(dir, 'locked')))).toThrow(
      "cannot run 'only-here': permission denied",
    );
  });

  test('says not found for a name on no PATH entry, or a directory of that name', () => {
    expect(() => assertRunnable(['nope'], dir, env(path.join(dir, 'bin')))).toThrow(
      "cannot run 'nope': not found",
    );
    expect(() => assertRunnable(['bin'], dir, env(dir))).toThrow("cannot run 'bin': not found");
  });

  test('resolves a path with a slash against the working directory', () => {
    expect(() => assertRunnable(['./bin/tool'], dir, env(''))).not.toThrow();
    expect(() => assertRunnable(['./bin/tool'], '/', env(''))).toThrow("cannot run './bin/tool': not found");
  });

  test('treats an empty PATH entry as the working directory, as execvp does', () => {
    expect(() => assertRunnable(['tool'], path.join(dir, 'bin'), env(':/nonexistent'))).not.toThrow();
  });

  test('searches /bin:/usr/bin when the environment has no PATH', () => {
    expect(() => assertRunnable(['sh'], dir, {})).not.toThrow();
  });

  test('refuses an empty command', () => {
    expect(() => assertRunnable([], dir, env('/bin'))).toThrow('cannot run an empty command');
    expect(() => assertRunnable([''], dir, env('/bin'))).toThrow('cannot run an empty command');
  });

  test('names a working directory that is missing or not a directory', () => {
    const file = path.join(dir, 'bin', 'tool');
    expect(() => assertRunnable(['sh'], file, env('/bin'))).toThrow(
      `cannot run 'sh': no such directory '${file}'`,
    );
  });
});
