import * as dgram from 'node:dgram';

/**
 * A UDP forwarder on loopback that stands in for the network between two peers: a client dials
 * the relay's port instead of the server's, and the test can cut the path (drop every packet
 * both ways) and restore it.
 */
export class UdpRelay {
  /** Packets dropped while the path was cut. */
  dropped = 0;
  private cut = false;
  private client: dgram.RemoteInfo | undefined;

  private constructor(
    private readonly front: dgram.Socket,
    private readonly back: dgram.Socket,
    private readonly target: { host: string; port: number },
  ) {
    front.on('message', (packet, from) => {
      this.client = from;
      if (this.cut) this.dropped++;
      else back.send(packet, this.target.port, this.target.host);
    });
    back.on('message', (packet) => {
      if (this.cut || !this.client) this.dropped++;
      else front.send(packet, this.client.port, this.client.address);
    });
  }

  /** Forward packets sent to the returned relay's `address` to `target` (`host:port`), and back. */
  static async start(target: string): Promise<UdpRelay> {
    const colon = target.lastIndexOf(':');
    const host = target.slice(0, colon);
    const port = Number(target.slice(colon + 1));
    const bind = (socket: dgram.Socket): Promise<void> =>
      new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const front = dgram.createSocket('udp4');
    const back = dgram.createSocket('udp4');
    await Promise.all([bind(front), bind(back)]);
    return new UdpRelay(front, back, { host, port });
  }

  get address(): string {
    return `127.0.0.1:${this.front.address().port}`;
  }

  /** Drop everything from now on, until restore(). */
  cutPath(): void {
    this.cut = true;
  }

  restore(): void {
    this.cut = false;
  }

  close(): void {
    this.front.close();
    this.back.close();
  }
}
