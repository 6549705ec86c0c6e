import { getTRPCErrorShape, TRPCError, type AnyTRPCRouter } from '@trpc/server';
import { frameJson } from './framing';

type RequestId = number | string;

/** What a reply answers: its request's id (and JSON-RPC version), and the procedure, when known. */
export interface ReplyTo {
  id: RequestId | null;
  jsonrpc?: '2.0';
  path?: string;
  type?: 'query' | 'mutation' | 'subscription';
}

type Body = { result: unknown } | { error: unknown };

/**
 * Frames the replies of one connection so that every request is answered, whatever its reply's
 * size: a reply too large for a frame is replaced by a PAYLOAD_TOO_LARGE error to the same id, and
 * where even that cannot fit (only an id of nearly a frame's size makes it so) by an error with id
 * `null` that says why. The error formatter cuts what it echoes (error-formatter.ts), so an error
 * reply itself never grows with its request.
 */
export class ReplyFramer {
  constructor(
    private readonly config: AnyTRPCRouter['_def']['_config'],
    private readonly maxFrameBytes: number,
    /** A reply that was replaced, for the server's log. */
    private readonly report: (error: TRPCError, to: ReplyTo) => void,
  ) {}

  frame(to: ReplyTo, body: Body): Buffer {
    const json = JSON.stringify({ id: to.id, jsonrpc: to.jsonrpc, ...body });
    const bytes = Buffer.byteLength(json);
    return bytes <= this.maxFrameBytes ? frameJson(json, this.maxFrameBytes) : this.replacement(to, bytes);
  }

  /**
   * A reply the tRPC adapter wrote as JSON. Its id is read back only when it is too large (the
   * adapter writes only what it made itself, so it parses).
   */
  frameAdapterReply(json: string): Buffer {
    const bytes = Buffer.byteLength(json);
    if (bytes <= this.maxFrameBytes) return frameJson(json, this.maxFrameBytes);
    const { id = null, jsonrpc } = JSON.parse(json) as { id?: RequestId | null; jsonrpc?: '2.0' };
    return this.replacement({ id, jsonrpc }, bytes);
  }

  private replacement(to: ReplyTo, bytes: number): Buffer {
    const error = new TRPCError({
      code: 'PAYLOAD_TOO_LARGE',
      message: `the reply of ${bytes} bytes exceeds the ${this.maxFrameBytes}-byte frame limit`,
    });
    this.report(error, to);
    const short = JSON.stringify({ id: to.id, jsonrpc: to.jsonrpc, error: this.shape(error, to) });
    if (Buffer.byteLength(short) <= this.maxFrameBytes) return frameJson(short, this.maxFrameBytes);
    const idChars = String(to.id).length;
    const noId = new TRPCError({
      code: 'PAYLOAD_TOO_LARGE',
      message: `the reply to a request with an id of ${idChars} characters does not fit in a frame; use a shorter id`,
    });
    return frameJson(JSON.stringify({ id: null, error: this.shape(noId, {}) }), this.maxFrameBytes);
  }

  private shape(error: TRPCError, to: Pick<ReplyTo, 'path' | 'type'>): unknown {
    return getTRPCErrorShape({
      config: this.config,
      error,
      type: to.type ?? 'unknown',
      path: to.path,
      input: undefined,
      ctx: undefined,
    });
  }
}
