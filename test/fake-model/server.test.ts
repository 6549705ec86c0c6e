import { Gate } from './gate';
import { claudeBash, codexExec, geminiShell, opencodeBash, text } from './replies';
import { FakeModelServer } from './server';

interface ParsedEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/** Reads a whole SSE body into its events, in order. */
async function readEvents(response: Response): Promise<ParsedEvent[]> {
  const body = await response.text();
  return body
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
}

function post(server: FakeModelServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const MAIN_MESSAGES = { model: 'claude-test', stream: true, tools: [{ name: 'Bash' }], messages: [] };
const MAIN_RESPONSES = {
  model: 'gpt-test',
  stream: true,
  tools: [{ type: 'function', name: 'exec_command' }],
  input: [],
};

describe('the fake model server', () => {
  let server: FakeModelServer;
  beforeEach(async () => {
    server = await FakeModelServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams a queued text reply as a complete Messages event sequence', async () => {
    server.enqueue(text('Hello from the fake model, streamed in pieces.'));
    const events = await readEvents(await post(server, '/v1/messages?beta=true', MAIN_MESSAGES));
    const names = events.map((e) => e.event).filter((name) => name !== 'content_block_delta');
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const streamed = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(streamed).toBe('Hello from the fake model, streamed in pieces.');
    expect(server.requests.map((r) => [r.path, r.kind])).toEqual([['/v1/messages', 'main']]);
  });

  it('streams a Bash tool_use whose partial JSON reassembles to the command', async () => {
    server.enqueue(claudeBash('touch /tmp/x', 'Create x'));
    const events = await readEvents(await post(server, '/v1/messages', MAIN_MESSAGES));
    const start = events.find((e) => e.event === 'content_block_start')!.data.content_block as Record<
      string,
      unknown
    >;
    expect(start).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const json = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'touch /tmp/x', description: 'Create x' });
    const stop = events.find((e) => e.event === 'message_delta')!.data.delta as Record<string, unknown>;
    expect(stop.stop_reason).toBe('tool_use');
  });

  it('answers a non-streamed Messages request with the whole message as JSON', async () => {
    server.enqueue(claudeBash('ls', 'List'));
    const body = (await (await post(server, '/v1/messages', { ...MAIN_MESSAGES, stream: false })).json()) as {
      content: Array<Record<string, unknown>>;
      stop_reason: string;
    };
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content[0]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'ls' } });
  });

  it('keeps scripted replies for main requests and answers side requests with the side text', async () => {
    server.enqueue(text('for the main request'));
    const titleRequest = {
      model: 'claude-haiku',
      stream: false,
      tools: [],
      messages: [],
      output_config: {
        format: { type: 'json_schema', schema: { properties: { title: { type: 'string' } } } },
      },
    };
    const title = (await (await post(server, '/v1/messages', titleRequest)).json()) as {
      content: Array<{ text: string }>;
    };
    expect(JSON.parse(title.content[0]!.text)).toEqual({ title: 'Fake session' });
    expect(server.pending).toBe(1);
    const main = (await (await post(server, '/v1/messages', { ...MAIN_MESSAGES, stream: false })).json()) as {
      content: Array<{ text: string }>;
    };
    expect(main.content[0]!.text).toBe('for the main request');
    expect(server.requests.map((r) => r.kind)).toEqual(['side', 'main']);
  });

  it('answers a main request with the default reply once the script is empty', async () => {
    const body = (await (await post(server, '/v1/messages', { ...MAIN_MESSAGES, stream: false })).json()) as {
      content: Array<{ text: string }>;
      stop_reason: string;
    };
    expect(body).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] });
  });

  it('streams a Responses text reply as output items, deltas and response.completed', async () => {
    server.enqueue(text('Codex-shaped answer'));
    const events = await readEvents(await post(server, '/v1/responses', MAIN_RESPONSES));
    expect(events[0]!.event).toBe('response.created');
    expect(events[events.length - 1]!.event).toBe('response.completed');
    const deltas = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(deltas).toBe('Codex-shaped answer');
    const done = events.find((e) => e.event === 'response.output_item.done')!.data.item as Record<
      string,
      unknown
    >;
    expect(done).toMatchObject({ type: 'message', role: 'assistant' });
  });

  it('streams an escalated exec_command function call for Codex', async () => {
    server.enqueue(codexExec('touch x', { escalated: true, justification: 'Make x?' }));
    const events = await readEvents(await post(server, '/v1/responses', MAIN_RESPONSES));
    const done = events.find((e) => e.event === 'response.output_item.done')!.data.item as {
      type: string;
      name: string;
      arguments: string;
      call_id: string;
    };
    expect(done).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(done.call_id).toMatch(/\S/);
    expect(JSON.parse(done.arguments)).toEqual({
      cmd: 'touch x',
      sandbox_permissions: 'require_escalated',
      justification: 'Make x?',
    });
    const completed = events[events.length - 1]!.data.response as { output: unknown[]; status: string };
    expect(completed.status).toBe('completed');
    expect(completed.output).toHaveLength(1);
  });

  it('holds a stream open after its content until the gate opens', async () => {
    const gate = new Gate();
    server.enqueue(text('held', { holdUntil: gate }));
    const response = await post(server, '/v1/messages', MAIN_MESSAGES);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const arrivals: string[] = [];
    let received = '';
    // Read until the content block has closed; the server must then be waiting on the gate.
    while (!received.includes('content_block_stop')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    arrivals.push(received.includes('message_stop') ? 'message_stop' : 'content only');
    gate.open();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    arrivals.push(received.includes('message_stop') ? 'message_stop' : 'content only');
    expect(arrivals).toEqual(['content only', 'message_stop']);
  });

  it('records paths it does not know and answers them with an empty object', async () => {
    const response = await post(server, '/api/eval/sdk-xyz', { anything: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(server.unknownPaths).toEqual(['POST /api/eval/sdk-xyz']);
  });

  it('lets a caller wait for a request that has not arrived yet', async () => {
    const waiting = server.waitForRequest((r) => r.kind === 'main', { timeoutMs: 5000 });
    await post(server, '/v1/models', undefined);
    await post(server, '/v1/responses', { ...MAIN_RESPONSES, stream: false });
    expect((await waiting).path).toBe('/v1/responses');
  });

  it('rejects a wait that no request satisfies, naming what did arrive', async () => {
    await fetch(`${server.origin}/v1/models`);
    await expect(server.waitForRequest((r) => r.kind === 'main', { timeoutMs: 50 })).rejects.toThrow(
      'GET /v1/models (side)',
    );
  });

  it('streams a Gemini reply as unnamed data events whose text parts join up, then the call and STOP', async () => {
    server.enqueue({ ...geminiShell('touch x', 'Create x'), preamble: 'About to run it.' });
    const response = await post(server, '/v1beta/models/gemini-test:streamGenerateContent?alt=sse', {
      contents: [],
      tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
    });
    const events = await readEvents(response);
    expect(events.every((e) => e.event === '')).toBe(true);
    const parts = events.flatMap(
      (e) =>
        (e.data.candidates as Array<{ content: { parts: Array<Record<string, unknown>> } }>)[0]!.content
          .parts,
    );
    expect(parts.map((part) => part.text ?? '').join('')).toBe('About to run it.');
    expect(parts.find((part) => part.functionCall)).toEqual({
      functionCall: { name: 'run_shell_command', args: { command: 'touch x', description: 'Create x' } },
    });
    const last = events[events.length - 1]!.data.candidates as Array<Record<string, unknown>>;
    expect(last[0]!.finishReason).toBe('STOP');
    expect(server.requests.map((r) => [r.api, r.kind])).toEqual([['gemini', 'main']]);
  });

  it("answers Gemini's routing request (no tools, an enum in its schema) with the first allowed value", async () => {
    const routing = {
      contents: [],
      generationConfig: {
        responseJsonSchema: {
          properties: {
            reasoning: { type: 'string' },
            model_choice: { type: 'string', enum: ['flash', 'pro'] },
          },
        },
      },
    };
    const body = (await (
      await post(server, '/v1beta/models/gemini-lite:generateContent', routing)
    ).json()) as {
      candidates: Array<{ content: { parts: Array<{ text: string }> } }>;
    };
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text)).toEqual({
      reasoning: 'Fake session',
      model_choice: 'flash',
    });
    expect(server.requests.map((r) => r.kind)).toEqual(['side']);
  });

  it('streams a Chat Completions tool call as deltas ending in finish_reason tool_calls', async () => {
    server.enqueue(opencodeBash('touch x', 'Create x'));
    const events = await readEvents(
      await post(server, '/v1/chat/completions', {
        model: 'fake-model',
        stream: true,
        tools: [{ type: 'function', function: { name: 'bash' } }],
        messages: [],
      }),
    );
    const choices = events.map((e) => (e.data.choices as Array<Record<string, unknown>>)[0]!);
    const call = choices
      .map(
        (choice) =>
          (choice.delta as { tool_calls?: Array<{ function: { name: string; arguments: string } }> })
            .tool_calls,
      )
      .find((calls) => calls !== undefined)![0]!;
    expect(call.function.name).toBe('bash');
    expect(JSON.parse(call.function.arguments)).toEqual({ command: 'touch x', description: 'Create x' });
    expect(choices[choices.length - 1]!.finish_reason).toBe('tool_calls');
  });
});
