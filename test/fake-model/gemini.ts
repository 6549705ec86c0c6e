import type { Reply } from './replies';
import { chunkText, type SseEvent } from './sse';

/**
 * The Gemini API (`POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`, and
 * `:generateContent` unstreamed) as Gemini CLI consumes it: every event is a whole
 * `GenerateContentResponse` carrying the next piece of the candidate's parts, the last one with a
 * `finishReason`. Events have no `event:` name, only `data:`.
 */

/** The fields of a generateContent request the fake server reads. */
export interface GenerateContentRequest {
  readonly tools?: readonly unknown[];
  readonly generationConfig?: { readonly responseJsonSchema?: unknown; readonly responseSchema?: unknown };
}

export function isGenerateContentRequest(body: unknown): body is GenerateContentRequest {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Gemini CLI's conversation turns declare its tools; routing and other side requests declare none. */
export function isMainGenerateContentRequest(body: GenerateContentRequest): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/** `/v1beta/models/gemini-2.5-pro:streamGenerateContent` → model and method, or undefined. */
export function parseGeminiPath(path: string): { model: string; method: string } | undefined {
  const match = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
  return match ? { model: match[1]!, method: match[2]! } : undefined;
}

const TEXT_PIECES = 24;

function chunk(model: string, parts: unknown[], finished: boolean): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(finished ? { finishReason: 'STOP' } : {}),
      },
    ],
    usageMetadata: finished
      ? { promptTokenCount: 12, candidatesTokenCount: 20, totalTokenCount: 32 }
      : { promptTokenCount: 12, totalTokenCount: 12 },
    modelVersion: model,
  };
}

function replyParts(reply: Reply): { textPieces: string[]; call: unknown } {
  if (reply.kind === 'text') return { textPieces: chunkText(reply.text, TEXT_PIECES), call: undefined };
  return {
    textPieces: reply.preamble ? chunkText(reply.preamble, TEXT_PIECES) : [],
    call: { functionCall: { name: reply.name, args: reply.input } },
  };
}

/**
 * The stream: nothing while the model "thinks" (the CLI shows its spinner from the request on),
 * the text pieces, then a final event with the function call (if any) and the finish reason.
 */
export function generateContentStream(
  reply: Reply,
  model: string,
): { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] } {
  const { textPieces, call } = replyParts(reply);
  return {
    opening: [],
    content: textPieces.map((piece) => ({ data: chunk(model, [{ text: piece }], false) })),
    closing: [{ data: chunk(model, call === undefined ? [] : [call], true) }],
  };
}

/** The unstreamed form: one response with the whole text and the call. */
export function generateContentBody(reply: Reply, model: string): Record<string, unknown> {
  const { textPieces, call } = replyParts(reply);
  const parts: unknown[] = [];
  if (textPieces.length > 0) parts.push({ text: textPieces.join('') });
  if (call !== undefined) parts.push(call);
  return chunk(model, parts, true);
}
