import type { Reply } from './replies';
import { chunkText, type SseEvent } from './sse';

/**
 * The OpenAI Responses API (`POST /v1/responses`, `stream: true`) as Codex consumes it: output
 * items announced, text deltas, each item completed, then `response.completed`.
 */

export interface ResponsesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly unknown[];
}

export function isResponsesRequest(body: unknown): body is ResponsesRequest {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** Codex's conversation turns carry its tools; its title request carries none. */
export function isMainResponsesRequest(body: ResponsesRequest): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const TEXT_PIECES = 24;

function responseShell(
  serial: number,
  model: string,
  status: string,
  output: unknown[],
): Record<string, unknown> {
  return {
    id: `resp_fake_${serial}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage:
      status === 'completed'
        ? {
            input_tokens: 12,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 20,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 32,
          }
        : null,
  };
}

function messageItem(id: string, text: string): Record<string, unknown> {
  return {
    type: 'message',
    id,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/** Events for one assistant message item at `outputIndex`. */
function messageEvents(id: string, text: string, outputIndex: number): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'response.output_item.added',
      data: {
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] },
      },
    },
  ];
  for (const delta of chunkText(text, TEXT_PIECES)) {
    events.push({
      event: 'response.output_text.delta',
      data: {
        type: 'response.output_text.delta',
        item_id: id,
        output_index: outputIndex,
        content_index: 0,
        delta,
      },
    });
  }
  events.push({
    event: 'response.output_item.done',
    data: { type: 'response.output_item.done', output_index: outputIndex, item: messageItem(id, text) },
  });
  return events;
}

function outputItems(reply: Reply, serial: number): { items: unknown[]; events: SseEvent[] } {
  if (reply.kind === 'text') {
    const id = `msg_fake_${serial}`;
    return { items: [messageItem(id, reply.text)], events: messageEvents(id, reply.text, 0) };
  }
  const items: unknown[] = [];
  const events: SseEvent[] = [];
  if (reply.preamble) {
    const id = `msg_fake_${serial}`;
    items.push(messageItem(id, reply.preamble));
    events.push(...messageEvents(id, reply.preamble, 0));
  }
  const call = {
    type: 'function_call',
    id: `fc_fake_${serial}`,
    call_id: `call_fake_${serial}`,
    name: reply.name,
    arguments: JSON.stringify(reply.input),
    status: 'completed',
  };
  const outputIndex = items.length;
  items.push(call);
  events.push(
    {
      event: 'response.output_item.added',
      data: {
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...call, arguments: '', status: 'in_progress' },
      },
    },
    {
      event: 'response.output_item.done',
      data: { type: 'response.output_item.done', output_index: outputIndex, item: call },
    },
  );
  return { items, events };
}

export function responsesStream(
  reply: Reply,
  serial: number,
  model: string,
): { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] } {
  const { items, events } = outputItems(reply, serial);
  return {
    opening: [
      {
        event: 'response.created',
        data: { type: 'response.created', response: responseShell(serial, model, 'in_progress', []) },
      },
      {
        event: 'response.in_progress',
        data: { type: 'response.in_progress', response: responseShell(serial, model, 'in_progress', []) },
      },
    ],
    content: events,
    closing: [
      {
        event: 'response.completed',
        data: { type: 'response.completed', response: responseShell(serial, model, 'completed', items) },
      },
    ],
  };
}

/** The non-streamed form, for a client that asks without `stream: true`. */
export function responsesBody(reply: Reply, serial: number, model: string): Record<string, unknown> {
  return responseShell(serial, model, 'completed', outputItems(reply, serial).items);
}
