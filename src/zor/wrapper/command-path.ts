/**
 * Finds the program to run the way a shell would, so `zor -- claud` fails up front with "command
 * not found" (exit 127) instead of a pty whose child dies in exec.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function resolveCommand(file: string, searchPath: string | undefined): string | undefined {
  if (file.includes('/')) return isExecutableFile(file) ? file : undefined;
  for (const dir of (searchPath ?? '').split(delimiter)) {
    const candidate = join(dir === '' ? '.' : dir, file);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
