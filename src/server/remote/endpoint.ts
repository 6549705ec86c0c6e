import type { Duplex } from 'node:stream';
import { bindEndpoint, ticketOf } from '../../rpc/iroh/endpoint';
import { irohErrorText } from '../../rpc/iroh/errors';
import { CloseCode, HandshakeError, answerStream } from '../../rpc/iroh/handshake';
import type { Connection, Endpoint, Incoming, SecretKey } from '../../rpc/iroh/iroh';
import { answerPings } from '../../rpc/iroh/ping';
import { ATTACH_ALPN, type NetworkSettings } from './settings';

export interface RemoteLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface RemoteEndpointOptions {
  secretKey: SecretKey;
  network: NetworkSettings;
  /** Asked first for every connection, before the peer can open a stream. */
  isAllowed(peer: string): boolean;
  /** Serve one attach stream of an allowed peer (it is open and past its opening line). */
  serve(stream: Duplex, peer: string): void;
  log: RemoteLog;
}

/** An allowed peer's live connection. */
export interface RemotePeer {
  id: string;
  /** Where its packets come from as the connection began (`ip:port`, or a relay URL). */
  from: string;
  since: number;
}

/** What a refused peer reads (its `fux connect` prints it). */
export function refusalReason(peer: string): string {
  return `not allowed: ${peer}; on the server run \`fux allow ${peer}\``;
}

/**
 * The server's iroh endpoint: accepts QUIC connections for ATTACH_ALPN, refuses every peer whose
 * endpoint id is not allowed (closing the connection with CloseCode.refused and a reason, before
 * it can open a stream, so it never sees a byte of screen), and hands each stream an allowed peer
 * opens to `serve`. Peers also get their liveness pings answered (QUIC datagrams), which is how a
 * client notices a stalled path long before QUIC's own 30 s idle timeout.
 */
export class RemoteEndpoint {
  private readonly live = new Map<Connection, RemotePeer>();
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly endpoint: Endpoint,
    private readonly options: RemoteEndpointOptions,
  ) {}

  static async start(options: RemoteEndpointOptions): Promise<RemoteEndpoint> {
    const endpoint = await bindEndpoint({
      secretKey: options.secretKey,
      alpns: [ATTACH_ALPN],
      relays: options.network.relays,
      bindAddr: options.network.bindAddr,
    });
    const remote = new RemoteEndpoint(endpoint, options);
    void remote.acceptLoop();
    return remote;
  }

  get id(): string {
    return this.endpoint.id().toString();
  }

  /**
   * The ticket peers dial: id, direct addresses and home relay. With relays on, it waits up to
   * `waitMs` for a home relay so the ticket carries one (a machine offline gets one without).
   */
  async ticket(waitMs = 3000): Promise<{ ticket: string; addresses: string[]; relay: string | null }> {
    if (this.options.network.relays) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.endpoint.online(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
    }
    const addr = this.endpoint.addr();
    return { ticket: ticketOf(this.endpoint), addresses: addr.directAddresses(), relay: addr.relayUrl() };
  }

  /** The sockets the endpoint is bound to. */
  boundSockets(): string[] {
    return this.endpoint.boundSockets();
  }

  peers(): RemotePeer[] {
    return [...this.live.values()];
  }

  /** Close the connections of `peer` (no longer allowed); returns how many there were. */
  disconnect(peer: string, reason: string): number {
    let closed = 0;
    for (const [connection, info] of this.live) {
      if (info.id !== peer) continue;
      connection.close(CloseCode.refused, Array.from(Buffer.from(reason)));
      closed++;
    }
    return closed;
  }

  /** Tell every peer the server is going away, then close the endpoint. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const connection of this.live.keys()) {
        connection.close(CloseCode.shutdown, Array.from(Buffer.from('the fux server stopped')));
      }
      await this.endpoint.close();
    })();
    return this.stopping;
  }

  private async acceptLoop(): Promise<void> {
    for (;;) {
      let incoming;
      try {
        incoming = await this.endpoint.acceptNext();
      } catch (error) {
        if (!this.stopping) this.options.log.warn(`remote: accept failed: ${irohErrorText(error)}`);
        continue;
      }
      if (!incoming) return; // the endpoint closed
      void this.admit(incoming).catch((error: unknown) => {
        // A handshake that fails (a scanner, a peer speaking another protocol) is routine.
        this.options.log.info(`remote: a connection attempt failed: ${irohErrorText(error)}`);
      });
    }
  }

  private async admit(incoming: Incoming): Promise<void> {
    const where = await incoming.remoteAddr();
    const from = where.addr ?? where.kind;
    const connection = await (await incoming.accept()).connect();
    const peer = connection.remoteId().toString();
    let allowed: boolean;
    try {
      allowed = this.options.isAllowed(peer);
    } catch (error) {
      this.options.log.warn(
        `remote: refused ${peer} from ${from}: the allow-list cannot be read: ${String(error)}`,
      );
      connection.close(CloseCode.refused, Array.from(Buffer.from('the server cannot read its allow-list')));
      return;
    }
    if (!allowed) {
      this.options.log.warn(`remote: refused ${peer} from ${from}: not on the allow-list`);
      connection.close(CloseCode.refused, Array.from(Buffer.from(refusalReason(peer))));
      return;
    }
    this.live.set(connection, { id: peer, from, since: Date.now() });
    this.options.log.info(`remote: ${peer} connected from ${from}`);
    answerPings(connection);
    void connection.closed().then((why) => {
      this.live.delete(connection);
      this.options.log.info(`remote: ${peer} disconnected (${why})`);
    });
    for (;;) {
      let bi;
      try {
        bi = await connection.acceptBi();
      } catch {
        return; // the connection is gone; `closed()` above logs why
      }
      // Each stream's opening line is read on its own, so one slow stream holds up no other.
      answerStream(bi, ATTACH_ALPN).then(
        (stream) => this.options.serve(stream, peer),
        (error: unknown) => {
          const why = error instanceof HandshakeError ? error.message : irohErrorText(error);
          this.options.log.info(`remote: ${peer}: a stream did not open: ${why}`);
        },
      );
    }
  }
}
