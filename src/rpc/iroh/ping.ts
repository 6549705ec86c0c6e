import type { Connection } from './iroh';

/**
 * Liveness over QUIC datagrams. QUIC itself sends a keep-alive only every few seconds and calls a
 * silent path dead after 30 s; a client that wants to say "reconnecting…" within a second or two
 * sends a small datagram every interval and the server echoes it. Datagrams are unreliable and
 * never retransmitted, which is what a probe wants: a lost one is simply missing.
 */

/** The server's half: echo every datagram until the connection closes. */
export function answerPings(connection: Connection): void {
  void (async () => {
    for (;;) {
      let datagram: number[];
      try {
        datagram = await connection.readDatagram();
      } catch {
        return; // closed
      }
      try {
        connection.sendDatagram(datagram);
      } catch {
        // the send buffer is full or the connection is closing: the probe counts it as lost
      }
    }
  })();
}

export interface PingerOptions {
  intervalMs: number;
  /** An echo came back: `rttMs` is its round trip. */
  onEcho(rttMs: number, now: number): void;
  now?: () => number;
}

/** The client's half: a numbered datagram every interval, and the round trip of each echo. */
export class Pinger {
  private readonly sent = new Map<number, number>();
  private next = 0;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly connection: Connection,
    private readonly options: PingerOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.timer = setInterval(() => this.ping(), options.intervalMs);
    this.timer.unref();
    this.ping();
    void this.listen();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private ping(): void {
    const seq = this.next++;
    this.sent.set(seq, this.now());
    // Old probes that never came back are forgotten.
    this.sent.delete(seq - 64);
    const datagram = Buffer.alloc(4);
    datagram.writeUInt32BE(seq >>> 0);
    try {
      this.connection.sendDatagram(Array.from(datagram));
    } catch {
      // closing, or the buffer is full during an outage: a missing echo says as much
    }
  }

  private async listen(): Promise<void> {
    while (!this.stopped) {
      let datagram: number[];
      try {
        datagram = await this.connection.readDatagram();
      } catch {
        this.stop();
        return;
      }
      if (datagram.length !== 4) continue;
      const seq = Buffer.from(datagram).readUInt32BE(0);
      const sentAt = this.sent.get(seq);
      if (sentAt === undefined) continue;
      this.sent.delete(seq);
      const now = this.now();
      this.options.onEcho(now - sentAt, now);
    }
  }
}
