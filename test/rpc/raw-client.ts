import * as net from 'node:net';

export interface WireError {
  code: number;
  message: string;
  data: { code: string; httpStatus: number; path?: string; stack?: string };
}

/** A reply as it travels: what a `socat` user would read, one line parsed. */
export interface WireMessage {
  id: number | string | null;
  result?: { type: string; data?: unknown };
  error?: WireError;
}

/** One request as a line of the wire format: what `call` writes, for a test that writes several at once. */
export function requestLine(id: number | string, method: string, procedure: string, input?: unknown): string {
  return `${JSON.stringify({ id, method, params: { path: procedure, input } })}\n`;
}

/** A client that speaks the wire format by hand, the way a script with `socat` would. */
export class RawClient {
  readonly received: WireMessage[] = [];
  private buffered = '';
  private ended = false;
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.buffered += text;
      let newline: number;
      while ((newline = this.buffered.indexOf('\n')) !== -1) {
        this.received.push(JSON.parse(this.buffered.slice(0, newline)) as WireMessage);
        this.buffered = this.buffered.slice(newline + 1);
      }
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        resolve();
      }),
    );
  }

  static connect(socketPath: string): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path: socketPath });
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new RawClient(socket));
      });
    });
  }

  get isClosed(): boolean {
    return this.ended;
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** The first message received (now or later) that satisfies `predicate`. */
  async next(
    what: string,
    predicate: (message: WireMessage) => boolean,
    timeoutMs = 10_000,
  ): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (this.ended) throw new Error(`connection closed while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Sends one request and resolves with the reply carrying its id. */
  async call(id: number | string, method: string, procedure: string, input?: unknown): Promise<WireMessage> {
    await this.write(requestLine(id, method, procedure, input));
    return this.next(`the reply to request ${id}`, (message) => message.id === id);
  }

  close(): void {
    this.socket.destroy();
  }
}
