import type { Duplex } from 'node:stream';
import type { SecretKey } from '../../rpc/iroh/iroh';
import { AllowList } from './allow-list';
import { RemoteEndpoint, type RemoteLog, type RemotePeer } from './endpoint';
import { serverIdentity } from './identity';
import { allowListFile, type NetworkSettings } from './settings';

/** How long a stopping server waits for its peers to hear that it is going. */
const STOP_GRACE_MS = 1000;

export interface RemoteServiceOptions {
  configDir: string;
  network: NetworkSettings;
  log: RemoteLog;
  /** Serve one attach stream of an allowed peer. */
  serve(stream: Duplex, peer: string): void;
}

export interface RemoteTicket {
  id: string;
  ticket: string;
  addresses: string[];
  relay: string | null;
}

/**
 * Remote attach on the server: the identity (created on first use), the allow-list, and the iroh
 * endpoint, started when there is someone to let in (a non-empty allow-list at boot, `fux allow`)
 * or someone asks for a ticket. The procedures of `remote` (router.ts) are its interface.
 */
export class RemoteService {
  readonly allowList: AllowList;
  private identity: { key: SecretKey; id: string } | undefined;
  private endpoint: Promise<RemoteEndpoint> | undefined;
  private stopped = false;

  constructor(private readonly options: RemoteServiceOptions) {
    this.allowList = new AllowList(allowListFile(options.configDir));
  }

  /** This machine's endpoint id (the key file is created if it does not exist yet). */
  get id(): string {
    return this.key().id;
  }

  get running(): boolean {
    return this.endpoint !== undefined;
  }

  /**
   * At boot: add the ids `fux serve --allow` named, and start the endpoint if anyone is allowed.
   * Failures (an allow-list others could write, a bind error) are logged: the local server runs on.
   */
  async boot(allow: readonly string[] = []): Promise<void> {
    try {
      if (allow.length)
        for (const id of this.allowList.add(allow)) this.options.log.info(`remote: allowed ${id}`);
      for (const p of this.allowList.problems()) {
        this.options.log.warn(
          `remote: ${this.allowList.file} line ${p.line} is not an endpoint id: ${p.text}`,
        );
      }
      if (this.allowList.size > 0) await this.start();
    } catch (error) {
      this.options.log.warn(`remote: not started: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The endpoint, started once (concurrent callers share the start). */
  start(): Promise<RemoteEndpoint> {
    if (this.stopped) return Promise.reject(new Error('the server is stopping'));
    if (!this.endpoint) {
      const { key } = this.key();
      const starting = RemoteEndpoint.start({
        secretKey: key,
        network: this.options.network,
        isAllowed: (peer) => this.allowList.has(peer),
        serve: this.options.serve,
        log: this.options.log,
      });
      this.endpoint = starting;
      starting.then(
        (endpoint) => {
          const mode = this.options.network.relays ? 'relays on' : 'relays and discovery off';
          this.options.log.info(
            `remote: endpoint ${endpoint.id} on ${endpoint.boundSockets().join(', ')} (${mode})`,
          );
        },
        () => (this.endpoint = undefined), // the next call tries again
      );
    }
    return this.endpoint;
  }

  async allow(ids: readonly string[]): Promise<{ added: string[]; allowed: string[] }> {
    const added = this.allowList.add(ids);
    for (const id of added) this.options.log.info(`remote: allowed ${id}`);
    await this.start();
    return { added, allowed: this.allowList.list() };
  }

  /** Stop allowing `ids`, and end their live connections. */
  async disallow(
    ids: readonly string[],
  ): Promise<{ removed: string[]; disconnected: number; allowed: string[] }> {
    const removed = this.allowList.remove(ids);
    let disconnected = 0;
    const endpoint = this.endpoint && (await this.endpoint.catch(() => undefined));
    for (const id of removed) {
      this.options.log.info(`remote: no longer allowed: ${id}`);
      disconnected += endpoint?.disconnect(id, `no longer allowed: ${id}`) ?? 0;
    }
    return { removed, disconnected, allowed: this.allowList.list() };
  }

  async ticket(): Promise<RemoteTicket> {
    const endpoint = await this.start();
    return { id: endpoint.id, ...(await endpoint.ticket()) };
  }

  async status(): Promise<{ id: string; running: boolean; peers: RemotePeer[] }> {
    const endpoint = this.endpoint && (await this.endpoint.catch(() => undefined));
    return { id: this.id, running: endpoint !== undefined, peers: endpoint?.peers() ?? [] };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const endpoint = this.endpoint && (await this.endpoint.catch(() => undefined));
    // iroh waits for peers to acknowledge the close; one that has vanished must not hold up a stop.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([endpoint?.stop(), new Promise((r) => (timer = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(timer);
  }

  private key(): { key: SecretKey; id: string } {
    this.identity ??= serverIdentity(this.options.configDir);
    return this.identity;
  }
}
