import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A file scripts/build-native.js built (`native/build/<name>`: zor's relay, the server's allocator
 * trim), looked up from each of `starts` (a module's folder, the script node runs) up to the
 * package root a few levels above; undefined where it was not built.
 */
export function findNativeBuild(name: string, starts: readonly string[]): string | undefined {
  const relative = join('native', 'build', name);
  for (const start of starts) {
    let dir = start;
    for (let level = 0; level < 4; level++) {
      const candidate = join(dir, relative);
      if (existsSync(candidate)) return candidate;
      dir = dirname(dir);
    }
  }
  return undefined;
}
