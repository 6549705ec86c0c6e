import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where scripts/build-native.js puts the addon, relative to the package root. */
const ADDON_PATH = join('native', 'build', 'malloc-trim.node');

/**
 * Hands the C allocator's free pages back to the system (glibc's malloc_trim, through
 * native/malloc-trim.c); true when some were. Undefined where the addon was not built (no compiler
 * at install, not glibc): the server then keeps what the allocator keeps, as before.
 */
export type AllocatorTrim = () => boolean;

export function loadAllocatorTrim(): AllocatorTrim | undefined {
  const file = findAddon();
  if (file === undefined) return undefined;
  const addon: { exports: { trim?: unknown } } = { exports: {} };
  try {
    process.dlopen(addon, file);
  } catch {
    return undefined; // built for another machine, or a libc without malloc_trim
  }
  const trim = addon.exports.trim;
  return typeof trim === 'function' ? () => trim() === true : undefined;
}

/** The package root is a few levels above this file (src/server/memory or dist/server/memory). */
function findAddon(): string | undefined {
  let dir = __dirname;
  for (let level = 0; level < 4; level++) {
    const candidate = join(dir, ADDON_PATH);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return undefined;
}
