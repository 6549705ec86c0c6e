import type { Reply } from './replies';
import { chunkText, type SseEvent } from './sse';

/**
 * The OpenAI Chat Completions API (`POST /v1/chat/completions`) as OpenCode's OpenAI-compatible
 * provider consumes it: unnamed `data:` chunks of `delta`s, text first, then a tool call, the last
 * chunk with the finish reason and usage. The stream simply ends; the client needs no `[DONE]`.
 */

export interface ChatCompletionsRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly unknown[];
}

export function isChatCompletionsRequest(body: unknown): body is ChatCompletionsRequest {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** OpenCode's conversation turns offer its tools; its title request offers none. */
export function isMainChatCompletionsRequest(body: ChatCompletionsRequest): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const TEXT_PIECES = 24;

const USAGE = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 };

function chunk(serial: number, model: string, delta: unknown, finishReason: string | null): SseEvent {
  return {
    data: {
      id: `chatcmpl-fake-${serial}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...(finishReason === null ? {} : { usage: USAGE }),
    },
  };
}

function replyText(reply: Reply): string {
  return reply.kind === 'text' ? reply.text : (reply.preamble ?? '');
}

function toolCall(reply: Reply, serial: number): Record<string, unknown> | undefined {
  if (reply.kind !== 'tool_call') return undefined;
  return {
    id: `call_fake_${serial}`,
    type: 'function',
    function: { name: reply.name, arguments: JSON.stringify(reply.input) },
  };
}

export function chatCompletionsStream(
  reply: Reply,
  serial: number,
  model: string,
): { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] } {
  const call = toolCall(reply, serial);
  const content = chunkText(replyText(reply), TEXT_PIECES).map((piece) =>
    chunk(serial, model, { content: piece }, null),
  );
  if (call !== undefined) content.push(chunk(serial, model, { tool_calls: [{ index: 0, ...call }] }, null));
  return {
    opening: [chunk(serial, model, { role: 'assistant', content: '' }, null)],
    content,
    closing: [chunk(serial, model, {}, call === undefined ? 'stop' : 'tool_calls')],
  };
}

/** The unstreamed form. */
export function chatCompletionsBody(reply: Reply, serial: number, model: string): Record<string, unknown> {
  const call = toolCall(reply, serial);
  return {
    id: `chatcmpl-fake-${serial}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: replyText(reply),
          ...(call === undefined ? {} : { tool_calls: [call] }),
        },
        finish_reason: call === undefined ? 'stop' : 'tool_calls',
      },
    ],
    usage: USAGE,
  };
}
