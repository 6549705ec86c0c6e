import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Directories the processes of a test cannot write. Root writes through any mode bits, so as root
 * a read-only tmpfs is mounted on the directory (the system then says "read-only file system");
 * any other user gets mode 0555 ("permission denied").
 */
const asRoot = process.getuid?.() === 0;

function mount(...args: string[]): boolean {
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

/** Why read-only directories cannot be made here (root without the right to mount), or undefined if they can. */
export function readOnlyDirsUnavailable(): string | undefined {
  if (!asRoot) return undefined;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-ro-probe-'));
  try {
    if (!mount('-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', probe))
      return 'running as root without the right to mount a tmpfs';
    spawnSync('umount', [probe]);
    return undefined;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

export interface ReadOnlyDir {
  readonly dir: string;
  /** What the system says of a write there. */
  readonly reason: string;
  /** Unmounts (or makes writable again) and removes it. */
  release(): void;
}

/** A new read-only directory (a temp dir of its own), with what `fill` put in it first. */
export function readOnlyDir(fill: (dir: string) => void = () => undefined): ReadOnlyDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-ro-'));
  const remove = (): void => fs.rmSync(dir, { recursive: true, force: true });
  if (asRoot) {
    if (!mount('-t', 'tmpfs', '-o', 'size=1m,mode=700', 'tmpfs', dir))
      throw new Error(`cannot mount a tmpfs on ${dir}`);
    fill(dir);
    if (!mount('-o', 'remount,ro', dir)) throw new Error(`cannot remount ${dir} read-only`);
    return {
      dir,
      reason: 'read-only file system',
      release: () => {
        spawnSync('umount', ['-l', dir]);
        remove();
      },
    };
  }
  fill(dir);
  const dirs = [
    dir,
    ...fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => path.join(dir, p)),
  ].filter((p) => fs.statSync(p).isDirectory());
  for (const d of dirs) fs.chmodSync(d, 0o555);
  return {
    dir,
    reason: 'permission denied',
    release: () => {
      for (const d of dirs) fs.chmodSync(d, 0o755);
      remove();
    },
  };
}
