import { Endpoint, EndpointTicket, RelayMode, presetMinimal, presetN0, type SecretKey } from './iroh';
import type { Connection, EndpointAddr } from './iroh';
import { irohErrorText } from './errors';

export interface BindOptions {
  secretKey: SecretKey;
  /** The application protocols this endpoint accepts (a dialling-only endpoint needs none). */
  alpns?: string[];
  /**
   * true: iroh's defaults (n0's relays and address discovery: works through NATs). false: no relay
   * and no discovery, so peers reach each other only by the direct addresses in a ticket (tests on
   * loopback, a LAN without internet).
   */
  relays: boolean;
  /** `host:port` to bind (default: iroh's, every interface on a random port). */
  bindAddr?: string;
}

/** ALPN strings as the bindings take them. */
export function alpnBytes(alpn: string): number[] {
  return Array.from(Buffer.from(alpn, 'utf8'));
}

export async function bindEndpoint(options: BindOptions): Promise<Endpoint> {
  const builder = Endpoint.builder();
  if (options.relays) presetN0(builder);
  else {
    presetMinimal(builder);
    builder.relayMode(RelayMode.disabled());
  }
  builder.secretKey(options.secretKey.toBytes());
  if (options.alpns) builder.alpns(options.alpns.map(alpnBytes));
  if (options.bindAddr) builder.bindAddr(options.bindAddr);
  return builder.bind();
}

/** The endpoint's ticket: its id, its direct addresses and its home relay, as one string. */
export function ticketOf(endpoint: Endpoint): string {
  return EndpointTicket.fromAddr(endpoint.addr()).toString();
}

/** A dial that did not complete: `timedOut` when nothing answered in time. */
export class DialError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Dial `addr` and give up after `timeoutMs` (iroh's own limit is 30 s, long for a person waiting
 * at a prompt). The bindings cannot cancel a dial, so one that succeeds after the deadline is
 * closed when it does.
 */
export function connectWithin(
  endpoint: Endpoint,
  addr: EndpointAddr,
  alpn: string,
  timeoutMs: number,
): Promise<Connection> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new DialError(`no answer within ${timeoutMs} ms`, true));
    }, timeoutMs);
    endpoint.connect(addr, alpnBytes(alpn)).then(
      (connection) => {
        clearTimeout(timer);
        if (settled) connection.close(0n, []);
        else resolve(connection);
        settled = true;
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        const text = irohErrorText(error);
        reject(new DialError(text, /timed out/i.test(text), { cause: error }));
      },
    );
  });
}
