import * as path from 'node:path';
import { parseEndpointId } from '../../rpc/iroh/address';

/** The application protocol a fux server speaks to remote peers (QUIC ALPN and stream opening line). */
export const ATTACH_ALPN = 'fux/attach/1';

/** How the server's endpoint meets the network, from the environment. */
export interface NetworkSettings {
  /** false with `FUX_IROH_RELAY=disabled`: no relays and no discovery, direct addresses only. */
  relays: boolean;
  /**
   * `FUX_IROH_BIND` (`host:port`), e.g. a fixed port for a firewall rule. Without it, every
   * interface on a random port; with relays off that is 0.0.0.0, so a LAN peer can dial the
   * addresses in the ticket (tests on one machine bind 127.0.0.1:0).
   */
  bindAddr?: string;
}

export function networkSettings(env: NodeJS.ProcessEnv = process.env): NetworkSettings {
  const relays = env.FUX_IROH_RELAY !== 'disabled';
  const bindAddr = env.FUX_IROH_BIND || (relays ? undefined : '0.0.0.0:0');
  return bindAddr ? { relays, bindAddr } : { relays };
}

/** The endpoint's secret key: the machine's identity, shared by its server and its `fux connect`. */
export function identityFile(configDir: string): string {
  return path.join(configDir, 'iroh.key');
}

/** The endpoint ids allowed to attach, one per line. */
export function allowListFile(configDir: string): string {
  return path.join(configDir, 'allow');
}

/**
 * The ids `fux serve --allow` passes to the server it starts (comma-separated in
 * FUX_SERVE_ALLOW; the command has validated them, so anything else here is ignored).
 */
export function allowFromServeEnv(env: NodeJS.ProcessEnv): string[] {
  const ids: string[] = [];
  for (const text of (env.FUX_SERVE_ALLOW ?? '').split(',')) {
    const id = parseEndpointId(text);
    if (id) ids.push(id);
  }
  return ids;
}
