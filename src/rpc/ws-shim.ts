import { EventEmitter } from 'node:events';
import type { StreamConnection } from './connection';
import type { ReplyFramer } from './reply-framer';

/** The `ws` readyState values the tRPC adapter compares against. */
const OPEN = 1;
const CLOSED = 3;

/** How a reply to a notification starts: the ids the shim gives notifications are negative. */
const SILENT_PREFIX = '{"id":-';

/**
 * A JSON-RPC 2.0 notification: a mutation sent without an `id` (absent, not null). Queries and
 * subscriptions without one keep tRPC's answer ("`id` is required"): a query no one reads, or a
 * stream no one can stop, is a mistake.
 */
function isNotification(message: unknown): message is { id?: number; method: 'mutation' } {
  return (
    typeof message === 'object' &&
    message !== null &&
    !Array.isArray(message) &&
    !('id' in message) &&
    (message as { method?: unknown }).method === 'mutation'
  );
}

/**
 * The part of a `ws` WebSocket that `getWSConnectionHandler` touches (read in
 * @trpc/server/dist/adapters/ws: `readyState`, `send`, `close`, and the 'message', 'error' and
 * 'close' events), over one newline-framed stream. Each decoded frame is one WebSocket message.
 */
export class WsShim extends EventEmitter {
  /** The message of the frame being delivered, parsed once here for the adapter's decoder to take. */
  private parsed: { message: unknown } | undefined;
  /**
   * Ids the server gave notifications (requests the client sent without one): their replies are
   * dropped, as JSON-RPC 2.0 says a notification gets none.
   */
  private readonly silent = new Set<number>();
  private lastSilentId = 0;

  constructor(
    private readonly connection: StreamConnection,
    private readonly framer: ReplyFramer,
    /** Serves a parsed message before the adapter sees it (the direct path); false passes it on. */
    private readonly take: (message: unknown) => boolean = () => false,
  ) {
    super();
    // The adapter aborts the connection's subscriptions on 'close', whoever closed it.
    connection.signal.addEventListener('abort', () => this.emit('close'), { once: true });
  }

  get readyState(): number {
    return this.connection.isOpen ? OPEN : CLOSED;
  }

  /** A text frame from the peer, as `ws` would deliver it. */
  deliver(frame: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(frame.toString('utf8'));
    } catch {
      // Not JSON: the adapter parses it again and answers with its PARSE_ERROR.
      this.emit('message', frame, false);
      return;
    }
    if (this.take(message)) return;
    if (isNotification(message)) {
      // Run like any request, in order with the others; only the reply is suppressed.
      const id = --this.lastSilentId;
      this.silent.add(id);
      message.id = id;
    }
    this.parsed = { message };
    try {
      this.emit('message', frame, false);
    } finally {
      this.parsed = undefined;
    }
  }

  /**
   * The adapter's decoder: the message `deliver` parsed (the adapter decodes synchronously while
   * it handles the 'message' event), so a frame is parsed once, not twice.
   */
  decode(data: string): unknown {
    const parsed = this.parsed;
    this.parsed = undefined;
    return parsed !== undefined ? parsed.message : JSON.parse(data);
  }

  /** The adapter's replies; one too large for a frame becomes an error (reply-framer.ts). */
  send(json: string): void {
    if (this.silent.size > 0 && this.isSilentReply(json)) return;
    this.connection.send(this.framer.frameAdapterReply(json));
  }

  /**
   * Whether `json` answers a notification. The adapter writes `id` first, so only a reply that
   * starts with a negative id is looked at further; each notification gets exactly one reply.
   */
  private isSilentReply(json: string): boolean {
    if (!json.startsWith(SILENT_PREFIX)) return false;
    const id = Number(json.slice('{"id":'.length, json.indexOf(',')));
    return this.silent.delete(id);
  }

  /** The adapter closes after a failed createContext, having already sent the error. */
  close(): void {
    this.connection.end('the context could not be created');
  }
}
