import type * as net from 'node:net';
import { findNativeBuild } from './native-build';

/**
 * The uid of the process at the other end of a connected unix socket, from the kernel
 * (SO_PEERCRED on Linux, getpeereid elsewhere, through native/peer-cred.c). Undefined where the
 * addon was not built or the socket has no descriptor: callers then rely on the socket file's
 * owner alone (src/paths.ts).
 */
export function peerUid(socket: net.Socket): number | undefined {
  const read = addon();
  // Node keeps a unix socket's descriptor on its handle; there is no public accessor.
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (read === undefined || typeof fd !== 'number' || fd < 0) return undefined;
  const uid = read(fd);
  return uid >= 0 ? uid : undefined;
}

let loaded: ((fd: number) => number) | null | undefined;

function addon(): ((fd: number) => number) | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  const file = findNativeBuild('peer-cred.node', [__dirname]);
  if (file === undefined) return undefined;
  const mod: { exports: { peerUid?: unknown } } = { exports: {} };
  try {
    process.dlopen(mod, file);
  } catch {
    return undefined; // built for another machine
  }
  const fn = mod.exports.peerUid;
  if (typeof fn === 'function') loaded = (fd) => Number(fn(fd));
  return loaded ?? undefined;
}
