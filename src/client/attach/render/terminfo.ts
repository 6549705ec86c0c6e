import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { unblessed } from './unblessed';

/**
 * Runs `create` (which makes an unblessed Program, the only thing that reads terminfo) with
 * unblessed able to load `xterm-256color`, whatever the user's TERM.
 *
 * Why: unblessed's terminfo loader fails on Debian's entries (the 32-bit number format) and then
 * looks for its bundled fallback at a path that does not exist. It does parse the legacy-format
 * `xterm-256color` entry @unblessed/core ships, so that entry is copied into a private directory
 * laid out like TERMINFO (`x/xterm-256color`) and put first in `Tput.ipaths` (unblessed's cached
 * search list) for the one load. fux writes its own sequences and every terminal it targets
 * speaks xterm's, so the entry only has to be one unblessed can read. The directory and the
 * list entry are removed again straight after.
 */
export function withXtermTerminfo<T>(create: () => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-terminfo-'));
  const paths = unblessed.Tput.ipaths as string[];
  try {
    fs.mkdirSync(path.join(dir, 'x'));
    fs.copyFileSync(bundledEntry(), path.join(dir, 'x', 'xterm-256color'));
    paths.unshift(dir);
    return create();
  } finally {
    const at = paths.indexOf(dir);
    if (at >= 0) paths.splice(at, 1);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `node_modules/@unblessed/core/data/xterm-256color`. The package's exports map does not list
 * `./package.json`, so `require.resolve('@unblessed/core/package.json')` throws
 * ERR_PACKAGE_PATH_NOT_EXPORTED; its main file (dist/index.cjs) is resolved instead.
 */
function bundledEntry(): string {
  const main = createRequire(__filename).resolve('@unblessed/core');
  return path.join(path.dirname(main), '..', 'data', 'xterm-256color');
}
