import type { Reply } from './replies';
import { chunkText, type SseEvent } from './sse';

/**
 * The Anthropic Messages API as Claude Code consumes it: a streamed message of text and
 * `tool_use` content blocks, or the same message as one JSON body when `stream` is false.
 */

/** The fields of a Messages request the fake server reads. */
export interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly unknown[];
}

export function isMessagesRequest(body: unknown): body is MessagesRequest {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/**
 * A main (conversation) request offers the agent's tools; title generation, quota probes and
 * other side requests offer none.
 */
export function isMainMessagesRequest(body: MessagesRequest): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const TEXT_PIECES = 24;

interface ContentBlockParts {
  readonly start: unknown;
  readonly deltas: unknown[];
  readonly final: unknown;
}

function textBlock(text: string): ContentBlockParts {
  return {
    start: { type: 'text', text: '' },
    deltas: chunkText(text, TEXT_PIECES).map((piece) => ({ type: 'text_delta', text: piece })),
    final: { type: 'text', text },
  };
}

function toolUseBlock(id: string, name: string, input: Readonly<Record<string, unknown>>): ContentBlockParts {
  const json = JSON.stringify(input);
  return {
    start: { type: 'tool_use', id, name, input: {} },
    deltas: chunkText(json, 4).map((piece) => ({ type: 'input_json_delta', partial_json: piece })),
    final: { type: 'tool_use', id, name, input },
  };
}

function blocksOf(reply: Reply, serial: number): { blocks: ContentBlockParts[]; stopReason: string } {
  if (reply.kind === 'text') return { blocks: [textBlock(reply.text)], stopReason: 'end_turn' };
  const blocks: ContentBlockParts[] = [];
  if (reply.preamble) blocks.push(textBlock(reply.preamble));
  blocks.push(toolUseBlock(`toolu_fake_${serial}`, reply.name, reply.input));
  return { blocks, stopReason: 'tool_use' };
}

const USAGE = {
  input_tokens: 12,
  output_tokens: 1,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function messageShell(serial: number, model: string): Record<string, unknown> {
  return {
    id: `msg_fake_${serial}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The streamed form, split where pacing applies: content events are the ones spread out. */
export function messagesStream(
  reply: Reply,
  serial: number,
  model: string,
): { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] } {
  const { blocks, stopReason } = blocksOf(reply, serial);
  const content: SseEvent[] = [];
  blocks.forEach((block, index) => {
    content.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: block.start },
    });
    for (const delta of block.deltas) {
      content.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
    content.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  return {
    opening: [
      { event: 'message_start', data: { type: 'message_start', message: messageShell(serial, model) } },
      { event: 'ping', data: { type: 'ping' } },
    ],
    content,
    closing: [
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: 20 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ],
  };
}

/** The non-streamed form of the same message. */
export function messagesBody(reply: Reply, serial: number, model: string): Record<string, unknown> {
  const { blocks, stopReason } = blocksOf(reply, serial);
  return {
    ...messageShell(serial, model),
    content: blocks.map((block) => block.final),
    stop_reason: stopReason,
    usage: { ...USAGE, output_tokens: 20 },
  };
}
