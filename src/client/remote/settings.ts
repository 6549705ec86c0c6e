import * as path from 'node:path';
import { resolveSocketPath, runtimePaths } from '../../paths';

/** The application protocol of a fux server's endpoint (the server's src/server/remote/settings.ts). */
export const ATTACH_ALPN = 'fux/attach/1';

type Env = Record<string, string | undefined>;

/** This machine's endpoint key: the same file the server uses, so a machine has one id. */
export function identityFile(env: Env = process.env): string {
  return path.join(runtimePaths(resolveSocketPath(undefined, env), env).configDir, 'iroh.key');
}

/** How `fux connect` meets the network and how long it holds on; see OpenRemoteOptions. */
export interface RemoteSettings {
  relays: boolean;
  bindAddr?: string;
  connectTimeoutMs: number;
  retentionMs: number;
}

function ms(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/**
 * From the environment: FUX_IROH_RELAY=disabled (no relays and no discovery: dial a ticket's
 * direct addresses), FUX_IROH_BIND (`host:port`), FUX_REMOTE_CONNECT_TIMEOUT_MS (one dial; default
 * 10 s) and FUX_REMOTE_RETENTION_MS (how long a lost connection is redialled; default 30 s).
 */
export function remoteSettings(env: Env = process.env): RemoteSettings {
  const relays = env.FUX_IROH_RELAY !== 'disabled';
  const settings: RemoteSettings = {
    relays,
    connectTimeoutMs: ms(env.FUX_REMOTE_CONNECT_TIMEOUT_MS, 10_000),
    retentionMs: ms(env.FUX_REMOTE_RETENTION_MS, 30_000),
  };
  if (env.FUX_IROH_BIND) settings.bindAddr = env.FUX_IROH_BIND;
  return settings;
}
