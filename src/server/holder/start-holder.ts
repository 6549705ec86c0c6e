import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { ensurePrivateDir } from '../../paths';
import type { PtyEvents, PtySpawn } from '../../pty/pty';
import { HeldPty } from './held-pty';
import { holderKey, type PanePlace } from './key';
import type { HolderNative } from './native';

/** The longest socket path a unix address holds everywhere (macOS: 104 bytes with the NUL). */
const SOCKET_PATH_LIMIT = 103;

/**
 * A new holder's socket: named by its key (the next server finds the pane by it, survivors.ts) and
 * a random part, so a pane restarted from the journal never meets a survivor's socket.
 */
export function holderSocket(dir: string, place: PanePlace): string {
  return path.join(dir, `${holderKey(place)}.${randomBytes(4).toString('hex')}.sock`);
}

/** Whether a holder for this place can listen in `dir` (a long workspace name may not fit). */
export function holderFits(dir: string, place: PanePlace): boolean {
  return Buffer.byteLength(holderSocket(dir, place)) <= SOCKET_PATH_LIMIT;
}

/**
 * Start a pane's program under a new holder (native/pane-holder.c) listening in `dir`, and take its
 * pty. The holder's start returns once it listens (it daemonises), so this is as synchronous as
 * node-pty's spawn. Throws with the holder's reason when it cannot start.
 */
export function startHeld(
  spawn: PtySpawn,
  place: PanePlace,
  dir: string,
  native: HolderNative,
  events: PtyEvents,
): HeldPty {
  ensurePrivateDir(dir);
  const socket = holderSocket(dir, place);
  const started = spawnSync(
    native.binary,
    [socket, holderKey(place), String(spawn.rows), String(spawn.cols), spawn.cwd, spawn.file, ...spawn.args],
    { env: spawn.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const said = (started.stdout ?? '').trim();
  if (started.error !== undefined || started.status !== 0) {
    const reason = said.startsWith('error ')
      ? said.slice(6)
      : (started.stderr ?? '').trim() || String(started.error);
    throw new Error(reason);
  }
  return HeldPty.take(socket, native.addon, events);
}
