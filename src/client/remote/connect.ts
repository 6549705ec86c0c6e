import type { Duplex } from 'node:stream';
import { PeerAddressError, parsePeerAddress, type PeerAddress } from '../../rpc/iroh/address';
import { DialError, bindEndpoint, connectWithin } from '../../rpc/iroh/endpoint';
import { applicationClose, irohErrorText } from '../../rpc/iroh/errors';
import { CloseCode, openStream } from '../../rpc/iroh/handshake';
import type { Connection, Endpoint, SecretKey } from '../../rpc/iroh/iroh';
import { Pinger } from '../../rpc/iroh/ping';
import {
  RemoteError,
  RemoteGoneError,
  RemoteRefusedError,
  RemoteTargetError,
  RemoteUnreachableError,
  short,
} from './errors';
import { localIdentity } from './identity';
import { LinkHealth, redialDelayMs } from './link-health';
import { ATTACH_ALPN, remoteSettings } from './settings';

/** What the transport tells its user about the link, for a status line. */
export type RemoteStatus =
  | { kind: 'stalled'; message: string }
  | { kind: 'resumed'; message: string }
  | { kind: 'reconnecting'; attempt: number; message: string }
  | { kind: 'reconnected'; message: string }
  | { kind: 'gone'; error: RemoteError };

export interface OpenRemoteOptions {
  /** Where the identity and network settings come from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** This machine's key (default: the identity file under $XDG_CONFIG_HOME/fux). */
  secretKey?: SecretKey;
  /** One dial's limit (default FUX_REMOTE_CONNECT_TIMEOUT_MS, else 10 s). */
  connectTimeoutMs?: number;
  /** How long after the peer was last heard a lost connection is redialled (default FUX_REMOTE_RETENTION_MS, else 30 s). */
  retentionMs?: number;
  /** Silence after which the link counts as stalled (default 2 s). */
  stallAfterMs?: number;
  /** Silence after which the connection is given up and a new one dialled (default 10 s). */
  redialAfterMs?: number;
  /** Liveness ping interval (default 500 ms). */
  pingIntervalMs?: number;
  onStatus?(status: RemoteStatus): void;
}

/** An attach transport over iroh: streams to one server that outlive a drop of the path. */
export interface RemoteTransport {
  /** The first stream, ready for a tRPC client of the remote router. */
  stream: Duplex;
  /** The server's endpoint id. */
  peer: string;
  /** This machine's endpoint id, as the server sees it. */
  self: string;
  /** Round trip of the last liveness ping, in ms (undefined before the first echo). */
  rttMs(): number | undefined;
  /** UDP bytes the current connection has sent and received (pings and QUIC overhead included). */
  udpBytes(): { sent: number; received: number } | undefined;
  /**
   * A new stream for a new attach session (the server sends the current state, not a replay). On
   * the live connection if there is one; after a loss, the connection a redial makes. Rejects with
   * a RemoteError once the server is gone (stopped, refused, or not back within the retention).
   */
  reopen(): Promise<Duplex>;
  /** Close the connection (the server detaches our sessions) and the endpoint. */
  close(): Promise<void>;
}

interface Link {
  connection: Connection;
  pinger: Pinger;
  health: LinkHealth;
  /** A stream opened while dialling, for the next `reopen()`. */
  spare?: Duplex;
}

/** Dial a fux server by endpoint id or ticket and open the first attach stream. */
export async function openRemote(target: string, options: OpenRemoteOptions = {}): Promise<RemoteTransport> {
  let address: PeerAddress;
  try {
    address = parsePeerAddress(target);
  } catch (error) {
    if (error instanceof PeerAddressError) throw new RemoteTargetError(error.message);
    throw error;
  }
  const env = options.env ?? process.env;
  const settings = remoteSettings(env);
  const key = options.secretKey ?? localIdentity(env).key;
  const endpoint = await bindEndpoint({
    secretKey: key,
    relays: settings.relays,
    bindAddr: settings.bindAddr,
  });
  const client = new RemoteClient(endpoint, address, {
    connectTimeoutMs: options.connectTimeoutMs ?? settings.connectTimeoutMs,
    retentionMs: options.retentionMs ?? settings.retentionMs,
    stallAfterMs: options.stallAfterMs ?? 2000,
    redialAfterMs: options.redialAfterMs ?? 10_000,
    pingIntervalMs: options.pingIntervalMs ?? 500,
    relays: settings.relays,
    onStatus: options.onStatus ?? (() => undefined),
  });
  try {
    const stream = await client.start();
    return {
      stream,
      peer: address.id,
      self: key.public().toString(),
      rttMs: () => client.rttMs,
      udpBytes: () => client.udpBytes(),
      reopen: () => client.reopen(),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

const closedByUs = (): RemoteGoneError => new RemoteGoneError('the remote connection was closed');

interface ClientSettings {
  connectTimeoutMs: number;
  retentionMs: number;
  stallAfterMs: number;
  redialAfterMs: number;
  pingIntervalMs: number;
  relays: boolean;
  onStatus(status: RemoteStatus): void;
}

/** One server, one connection at a time, replaced when it is lost. */
class RemoteClient {
  private link: Link | undefined;
  /** Set once the server is gone for good; every later `reopen()` fails with it. */
  private gone: RemoteError | undefined;
  private closed = false;
  /** The redial in progress, shared by every `reopen()` that waits for it. */
  private redial: Promise<Link> | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private readonly waiters: (() => void)[] = [];
  rttMs: number | undefined;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly address: PeerAddress,
    private readonly settings: ClientSettings,
  ) {}

  async start(): Promise<Duplex> {
    const link = await this.dial(this.settings.connectTimeoutMs);
    this.adopt(link);
    const stream = link.spare!;
    link.spare = undefined;
    this.checkTimer = setInterval(() => this.check(), this.settings.pingIntervalMs);
    this.checkTimer.unref();
    return stream;
  }

  async reopen(): Promise<Duplex> {
    for (;;) {
      if (this.gone) throw this.gone;
      const link = await this.nextLink();
      if (link.spare) {
        const spare = link.spare;
        link.spare = undefined;
        return spare;
      }
      try {
        return await openStream(link.connection, ATTACH_ALPN);
      } catch (error) {
        // The connection died under us: its `closed()` decides between redial and gone.
        const refused = this.refusal(error);
        if (refused) throw this.fail(refused);
        if (link.connection.closeReason() === null) throw new RemoteError(irohErrorText(error));
        await link.connection.closed();
      }
    }
  }

  udpBytes(): { sent: number; received: number } | undefined {
    const stats = this.link?.connection.stats();
    return stats && { sent: stats.udpTxBytes, received: stats.udpRxBytes };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.checkTimer);
    this.dropLink(this.link, 'detached');
    this.notify();
    await this.endpoint.close();
  }

  /**
   * A usable link: the current one once it answers, else the one the redial in progress makes (a
   * stalled link either comes back by itself or is given up for a redial; see check()).
   */
  private async nextLink(): Promise<Link> {
    for (;;) {
      if (this.gone) throw this.gone;
      if (this.closed) throw closedByUs();
      if (this.link && !this.link.health.stalled) return this.link;
      if (this.redial) return this.redial;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Wake whoever waits in nextLink() to look again. */
  private notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Connect and open the first stream on the new connection (that is where a refusal shows). */
  private async dial(timeoutMs: number): Promise<Link> {
    let connection: Connection;
    try {
      connection = await connectWithin(this.endpoint, this.address.addr, ATTACH_ALPN, timeoutMs);
    } catch (error) {
      throw this.refusal(error) ?? this.unreachable(error);
    }
    let stream: Duplex;
    try {
      stream = await openStream(connection, ATTACH_ALPN);
    } catch (error) {
      connection.close(CloseCode.done, []);
      throw this.refusal(error) ?? this.unreachable(error);
    }
    const now = performance.now();
    const link: Link = {
      connection,
      health: new LinkHealth(
        { stallAfterMs: this.settings.stallAfterMs, redialAfterMs: this.settings.redialAfterMs },
        now,
      ),
      pinger: new Pinger(connection, {
        intervalMs: this.settings.pingIntervalMs,
        onEcho: (rtt, at) => {
          this.rttMs = rtt;
          const change = link.health.heard(at);
          if (change?.kind === 'resumed' && this.link === link) {
            this.notify();
            this.settings.onStatus({
              kind: 'resumed',
              message: `${short(this.address.id)} answers again after ${Math.round(change.silentMs / 100) / 10} s`,
            });
          }
        },
      }),
      spare: stream,
    };
    return link;
  }

  /** Make `link` the current one and watch how its connection ends. */
  private adopt(link: Link): void {
    this.link = link;
    this.notify();
    void link.connection.closed().then((why) => {
      link.pinger.stop();
      if (this.link !== link || this.closed) return; // replaced or closed by us
      const close = applicationClose(why);
      if (close?.code === Number(CloseCode.refused)) {
        this.fail(new RemoteRefusedError(close.reason, this.address.id));
      } else if (close?.code === Number(CloseCode.shutdown)) {
        this.fail(new RemoteGoneError(`${short(this.address.id)}: ${close.reason || 'the server stopped'}`));
      } else {
        this.startRedial(`the connection was lost (${why})`, link.health.heardAt);
      }
    });
  }

  /** On the ping timer: tell the user about a stall; give up a connection silent too long. */
  private check(): void {
    const link = this.link;
    if (!link || this.redial || this.gone) return;
    const change = link.health.check(performance.now());
    if (change?.kind === 'stalled') {
      this.settings.onStatus({
        kind: 'stalled',
        message: `no answer from ${short(this.address.id)} for ${Math.round(change.silentMs / 1000)} s; reconnecting…`,
      });
    } else if (change?.kind === 'abandon') {
      this.startRedial(`no answer for ${Math.round(change.silentMs / 1000)} s`, link.health.heardAt);
    }
  }

  private startRedial(why: string, heardAt: number): void {
    if (this.redial || this.gone || this.closed) return;
    const old = this.link;
    this.link = undefined;
    // Ends the old connection's streams, so the attach session on it ends and the caller reopens.
    this.dropLink(old, 'reconnecting');
    const deadline = heardAt + this.settings.retentionMs;
    const redial = this.redialUntil(deadline, why);
    this.redial = redial;
    this.notify();
    redial.then(
      (link) => {
        this.redial = undefined;
        if (this.closed) return this.dropLink(link, 'detached');
        this.adopt(link);
        this.settings.onStatus({ kind: 'reconnected', message: `reconnected to ${short(this.address.id)}` });
      },
      (error: RemoteError) => {
        this.redial = undefined;
        this.fail(error);
      },
    );
    // Waiters handle the rejection; this keeps an unwaited one from being reported as unhandled.
    redial.catch(() => undefined);
  }

  private async redialUntil(deadline: number, why: string): Promise<Link> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw closedByUs();
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new RemoteGoneError(
          `lost ${short(this.address.id)} (${why}) and could not reconnect within ${Math.round(this.settings.retentionMs / 1000)} s; check the network, and that the server runs`,
        );
      }
      this.settings.onStatus({
        kind: 'reconnecting',
        attempt: attempt + 1,
        message: `reconnecting… (${why})`,
      });
      try {
        return await this.dial(Math.min(this.settings.connectTimeoutMs, left));
      } catch (error) {
        if (error instanceof RemoteRefusedError) throw error;
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(redialDelayMs(attempt), Math.max(0, left))),
      );
    }
  }

  private dropLink(link: Link | undefined, reason: string): void {
    if (!link) return;
    link.pinger.stop();
    link.spare?.destroy();
    link.connection.close(CloseCode.done, Array.from(Buffer.from(reason)));
  }

  private fail(error: RemoteError): RemoteError {
    if (!this.gone && !this.closed) {
      this.gone = error;
      this.settings.onStatus({ kind: 'gone', error });
      this.notify();
    }
    return error;
  }

  /** The server's refusal inside a failed dial or stream, if that is what it was. */
  private refusal(error: unknown): RemoteRefusedError | undefined {
    const close = applicationClose(error);
    if (close?.code === Number(CloseCode.refused))
      return new RemoteRefusedError(close.reason, this.address.id);
    return undefined;
  }

  private unreachable(error: unknown): RemoteError {
    const id = this.address.id;
    const close = applicationClose(error);
    if (close?.code === Number(CloseCode.shutdown))
      return new RemoteGoneError(`${short(id)}: ${close.reason}`);
    const timedOut = error instanceof DialError && error.timedOut;
    const how = timedOut ? 'nothing answered' : irohErrorText(error);
    const hints =
      this.address.kind === 'id' && !this.settings.relays
        ? 'with FUX_IROH_RELAY=disabled a bare id cannot be found: connect with the ticket `fux id --ticket` prints there'
        : 'check that its fux server runs and has its endpoint up (`fux id --ticket` there starts it), that both machines are online, or connect with a ticket';
    return new RemoteUnreachableError(`could not reach ${id}: ${how}; ${hints}`);
  }
}
