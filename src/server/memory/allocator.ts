import { findNativeBuild } from '../../native-build';

/**
 * Hands the C allocator's free pages back to the system (glibc's malloc_trim, through
 * native/malloc-trim.c); true when some were. Undefined where the addon was not built (no compiler
 * at install, not glibc): the server then keeps what the allocator keeps, as before.
 */
export type AllocatorTrim = () => boolean;

export function loadAllocatorTrim(): AllocatorTrim | undefined {
  const file = findNativeBuild('malloc-trim.node', [__dirname]);
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
