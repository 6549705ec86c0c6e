import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMainMessagesRequest, isMessagesRequest, messagesBody, messagesStream } from './anthropic';
import {
  chatCompletionsBody,
  chatCompletionsStream,
  isChatCompletionsRequest,
  isMainChatCompletionsRequest,
} from './openai-chat';
import {
  generateContentBody,
  generateContentStream,
  isGenerateContentRequest,
  isMainGenerateContentRequest,
  parseGeminiPath,
} from './gemini';
import { isMainResponsesRequest, isResponsesRequest, responsesBody, responsesStream } from './openai';
import { DEFAULT_REPLY, type Reply } from './replies';
import { streamSse, type SseEvent } from './sse';

/**
 * A fake model server on loopback for Claude Code (Anthropic Messages API), Codex (OpenAI
 * Responses API), OpenCode (OpenAI Chat Completions API) and Gemini CLI (Gemini API). Main requests (the ones offering tools) take their replies from a script the
 * caller queues; side requests (titles, quota probes, token counts, model lists) get something
 * harmless. Every request is recorded, and paths it does not know are flagged so a new agent
 * version's calls show up instead of failing silently.
 */

export type RequestKind = 'main' | 'side' | 'unknown';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly kind: RequestKind;
  /** The parsed JSON body, or undefined for an empty or non-JSON body. */
  readonly body: unknown;
  /** Which API the path belongs to, when it belongs to one. */
  readonly api: 'anthropic' | 'openai' | 'gemini' | undefined;
}

/** How the server answers one request, decided from its method, path and body. */
interface Route {
  readonly kind: RequestKind;
  readonly api: RecordedRequest['api'];
  readonly respond: (res: ServerResponse) => Promise<void>;
}

export interface FakeModelServerOptions {
  /** Receives one line per request; `capture --verbose` prints these, tests leave them silent. */
  readonly log?: (line: string) => void;
}

/** What every side request gets back: the agents show it as the session title. */
const SIDE_TEXT = 'Fake session';

export class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  private readonly script: Reply[] = [];
  private readonly listeners = new Set<() => void>();
  private serial = 0;

  private constructor(
    private readonly http: Server,
    private readonly options: FakeModelServerOptions,
  ) {}

  /** Listens on 127.0.0.1 on a free port the system picks. */
  static async start(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
    const http = createServer();
    const instance = new FakeModelServer(http, options);
    http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void instance.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
    return instance;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** The origin, without a path: Claude Code appends `/v1/messages` itself. */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queues replies for the next main requests, in order. */
  enqueue(...replies: Reply[]): void {
    this.script.push(...replies);
  }

  /** Replies still queued. */
  get pending(): number {
    return this.script.length;
  }

  /** Every path the server did not recognise, once each. */
  get unknownPaths(): string[] {
    return [
      ...new Set(this.requests.filter((r) => r.kind === 'unknown').map((r) => `${r.method} ${r.path}`)),
    ];
  }

  /** Resolves with the first recorded request (past or future) at `fromIndex` or later matching `test`. */
  waitForRequest(
    test: (request: RecordedRequest) => boolean,
    options: { fromIndex?: number; timeoutMs: number },
  ): Promise<RecordedRequest> {
    const fromIndex = options.fromIndex ?? 0;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.requests.slice(fromIndex).find(test);
        if (!found) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`no matching request within ${options.timeoutMs} ms; got ${this.describeRequests()}`),
        );
      }, options.timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.listeners.delete(onRequest);
      };
      const onRequest = (): void => {
        check();
      };
      if (!check()) this.listeners.add(onRequest);
    });
  }

  describeRequests(): string {
    return this.requests.map((r) => `${r.method} ${r.path} (${r.kind})`).join(', ') || 'nothing';
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const method = req.method ?? 'GET';
    const body = parseJson(await readBody(req));
    const route = this.route(method, path, body, new URLSearchParams(query));
    const recorded: RecordedRequest = { method, path, kind: route.kind, body, api: route.api };
    this.requests.push(recorded);
    this.options.log?.(`${method} ${path} -> ${route.kind}`);
    for (const listener of [...this.listeners]) listener();
    try {
      await route.respond(res);
    } catch (error) {
      // A client that hangs up mid-stream is normal (an interrupted turn); anything else is logged.
      if (!res.destroyed) this.options.log?.(`error answering ${method} ${path}: ${String(error)}`);
      res.destroy();
    }
  }

  private route(method: string, path: string, body: unknown, query: URLSearchParams): Route {
    const side = sideReply(body, SIDE_TEXT);
    /** A conversation request in one API: main requests take the script's next reply. */
    const conversation = (
      api: NonNullable<RecordedRequest['api']>,
      main: boolean,
      streamed: boolean,
      stream: (
        reply: Reply,
        serial: number,
      ) => { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] },
      whole: (reply: Reply, serial: number) => unknown,
    ): Route => {
      const reply = main ? this.nextReply() : side;
      const serial = ++this.serial;
      return {
        kind: main ? 'main' : 'side',
        api,
        respond: (res) =>
          streamed ? streamSse(res, stream(reply, serial), reply) : sendJson(res, whole(reply, serial)),
      };
    };
    if (method === 'POST' && path === '/v1/messages' && isMessagesRequest(body)) {
      const model = body.model ?? 'claude-fake';
      return conversation(
        'anthropic',
        isMainMessagesRequest(body),
        body.stream === true,
        (reply, serial) => messagesStream(reply, serial, model),
        (reply, serial) => messagesBody(reply, serial, model),
      );
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      return { kind: 'side', api: 'anthropic', respond: (res) => sendJson(res, { input_tokens: 12 }) };
    }
    if (method === 'POST' && path === '/v1/responses' && isResponsesRequest(body)) {
      const model = body.model ?? 'gpt-fake';
      return conversation(
        'openai',
        isMainResponsesRequest(body),
        body.stream === true,
        (reply, serial) => responsesStream(reply, serial, model),
        (reply, serial) => responsesBody(reply, serial, model),
      );
    }
    if (method === 'POST' && path === '/v1/chat/completions' && isChatCompletionsRequest(body)) {
      const model = body.model ?? 'gpt-fake';
      return conversation(
        'openai',
        isMainChatCompletionsRequest(body),
        body.stream === true,
        (reply, serial) => chatCompletionsStream(reply, serial, model),
        (reply, serial) => chatCompletionsBody(reply, serial, model),
      );
    }
    const gemini = method === 'POST' ? parseGeminiPath(path) : undefined;
    if (gemini?.method === 'countTokens') {
      return { kind: 'side', api: 'gemini', respond: (res) => sendJson(res, { totalTokens: 12 }) };
    }
    if (
      (gemini?.method === 'streamGenerateContent' || gemini?.method === 'generateContent') &&
      isGenerateContentRequest(body)
    ) {
      return conversation(
        'gemini',
        isMainGenerateContentRequest(body),
        gemini.method === 'streamGenerateContent' && query.get('alt') === 'sse',
        (reply) => generateContentStream(reply, gemini.model),
        (reply) => generateContentBody(reply, gemini.model),
      );
    }
    if (method === 'GET' && path === '/v1/models') {
      return { kind: 'side', api: undefined, respond: (res) => sendJson(res, MODEL_LIST) };
    }
    if (method === 'HEAD' && path === '/') {
      // Claude Code's reachability probe of the base URL.
      return { kind: 'side', api: undefined, respond: (res) => sendJson(res, {}) };
    }
    return { kind: 'unknown', api: undefined, respond: (res) => sendJson(res, {}) };
  }

  private nextReply(): Reply {
    return this.script.shift() ?? DEFAULT_REPLY;
  }
}

/**
 * Side requests that ask for structured output (Claude Code's title request wants
 * `{"title": ...}` by JSON schema) get an object with every property set to the side text, or to
 * the first value a property's `enum` allows (Gemini CLI's model router picks from a list); the
 * rest get the side text itself.
 */
function sideReply(body: unknown, sideText: string): Reply {
  const properties = jsonSchemaProperties(body);
  if (!properties) return { kind: 'text', text: sideText };
  const object: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const allowed = dig(schema, ['enum']);
    object[name] = Array.isArray(allowed) && allowed.length > 0 ? allowed[0] : sideText;
  }
  return { kind: 'text', text: JSON.stringify(object) };
}

function jsonSchemaProperties(body: unknown): Record<string, unknown> | undefined {
  const format = dig(body, ['output_config', 'format']) ?? dig(body, ['text', 'format']);
  const schema =
    dig(format, ['schema']) ??
    dig(body, ['generationConfig', 'responseJsonSchema']) ??
    dig(body, ['generationConfig', 'responseSchema']);
  const properties = dig(schema, ['properties']);
  if (typeof properties !== 'object' || properties === null) return undefined;
  return properties as Record<string, unknown>;
}

function dig(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A model list both APIs' clients accept: `data` entries carry both vocabularies' fields. */
const MODEL_LIST = {
  object: 'list',
  data: [
    {
      id: 'claude-sonnet-4-5',
      type: 'model',
      display_name: 'Claude Sonnet 4.5',
      created_at: '2025-09-29T00:00:00Z',
    },
    { id: 'gpt-5.3-codex', object: 'model', created: 1760000000, owned_by: 'fake' },
  ],
  has_more: false,
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function sendJson(res: ServerResponse, value: unknown): Promise<void> {
  const payload = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}
