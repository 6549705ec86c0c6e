/**
 * File system failures said the way a person reads them: what could not be done, to which path,
 * and the system's reason ("cannot write /home/u/.config/fux/allow-list: read-only file system"),
 * not Node's "EROFS: read-only file system, open '/home/u/.config/fux/allow-list.123.new'".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The system's words for why an operation failed, without the code, call and path Node puts around them. */
export function systemReason(error: unknown): string {
  // Not `instanceof Error`: an error made in another realm (a vm context, jest's) is one too.
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return String(error);
  return /^E[A-Z0-9]+: ([^,]+),/.exec(message)?.[1] ?? message;
}

/** `cannot ACTION PATH: REASON`, keeping the system error as its cause (and its code, to tell them apart). */
export class FsFailure extends Error {
  readonly code: string | undefined;

  constructor(
    readonly action: string,
    readonly path: string,
    cause: unknown,
  ) {
    super(`cannot ${action} ${path}: ${systemReason(cause)}`, { cause });
    this.name = 'FsFailure';
    this.code = (cause as NodeJS.ErrnoException).code;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `mkdir -p DIR` with `mode` for what it creates. A failure is an FsFailure naming the directory
 * that could not be created, with the real reason: Node's own recursive mkdir reports ENOENT
 * whatever went wrong (a read-only file system, a permission), and for the directory asked for.
 */
export function makeDirs(dir: string, mode: number): void {
  if (isDirectory(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) makeDirs(parent, mode);
  try {
    fs.mkdirSync(dir, { mode });
  } catch (error) {
    // Another process made it meanwhile: that is what was wanted.
    if (errorCode(error) === 'EEXIST' && isDirectory(dir)) return;
    throw new FsFailure('create', dir, error);
  }
}
