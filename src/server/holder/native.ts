import { findNativeBuild } from '../../native-build';

/** The server's side of native/pane-fd.c. */
export interface PaneFdAddon {
  /** Connect to a holder's socket: [connection fd, pty master fd, header], or what went wrong. */
  take(socket: string): [number, number, string] | string;
  /** TIOCSWINSZ on a master; the errno, 0 when done. */
  setSize(fd: number, cols: number, rows: number): number;
}

export interface HolderNative {
  /** native/build/pane-holder */
  readonly binary: string;
  readonly addon: PaneFdAddon;
}

let loaded: HolderNative | null | undefined;

/**
 * The pane holder and its addon, when scripts/build-native.js built both (and the addon loads
 * here); else undefined, and panes run on in-process ptys (item 5 of issue 27).
 */
export function holderNative(): HolderNative | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  const binary = findNativeBuild('pane-holder', [__dirname]);
  const file = findNativeBuild('pane-fd.node', [__dirname]);
  if (binary === undefined || file === undefined) return undefined;
  const mod: { exports: { take?: unknown; setSize?: unknown } } = { exports: {} };
  try {
    process.dlopen(mod, file);
  } catch {
    return undefined; // built for another machine
  }
  const { take, setSize } = mod.exports;
  if (typeof take !== 'function' || typeof setSize !== 'function') return undefined;
  loaded = {
    binary,
    addon: {
      take: (socket) => take(socket) as [number, number, string] | string,
      setSize: (fd, cols, rows) => Number(setSize(fd, cols, rows)),
    },
  };
  return loaded;
}
