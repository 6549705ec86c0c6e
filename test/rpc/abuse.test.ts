import { connectUnix, createStreamClient, type StreamClient } from '../../src/rpc';
import { RawClient, type WireMessage } from './raw-client';
import { startToyServer, type ToyRouter, type ToyServer } from './toy-server';
import { until } from '../helpers/wait-for';

let server: ToyServer;
let legitimate: StreamClient<ToyRouter>;
let legitimateId: number;
const raws: RawClient[] = [];

async function raw(): Promise<RawClient> {
  const client = await RawClient.connect(server.socketPath);
  raws.push(client);
  return client;
}

/** The other client, connected before the abuse began, still gets answers on its connection. */
async function expectLegitimateClientUnaffected(): Promise<void> {
  await expect(legitimate.client.echo.query({ text: 'still here' })).resolves.toBe('still here');
  await expect(legitimate.client.connectionId.query()).resolves.toBe(legitimateId);
}

const isTransportError = (code: string) => (message: WireMessage) =>
  message.id === null && message.error?.data.code === code;

/** A deterministic stream of "random" bytes (mulberry32), so a failure can be replayed. */
function randomBytes(count: number, seed: number): Buffer {
  const bytes = Buffer.alloc(count);
  let state = seed;
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    bytes[i] = (t ^ (t >>> 14)) & 0xff;
  }
  return bytes;
}

const blank = (line: Buffer): boolean =>
  line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);

function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, newline));
    start = newline + 1;
  }
  return lines;
}

beforeEach(async () => {
  server = await startToyServer();
  legitimate = createStreamClient<ToyRouter>(await connectUnix(server.socketPath));
  legitimateId = await legitimate.client.connectionId.query();
});

afterEach(async () => {
  for (const client of raws.splice(0)) client.close();
  legitimate.close();
  await server.stop();
});

describe('a server under protocol abuse', () => {
  it('answers every line of 64 KiB of random bytes with an error and then serves a request', async () => {
    const client = await raw();
    const garbage = Buffer.concat([randomBytes(64 * 1024, 7), Buffer.from('\n')]);
    const lines = linesOf(garbage).filter((line) => !blank(line));
    expect(lines.length).toBeGreaterThan(100);
    await client.write(garbage);
    await until(() => client.received.length === lines.length, 10_000, `${lines.length} error replies`);
    expect(client.received.every((message) => message.id === null && message.error !== undefined)).toBe(true);
    const reply = await client.call(1, 'query', 'echo', { text: 'after the noise' });
    expect(reply.result).toEqual({ type: 'data', data: 'after the noise' });
    await expectLegitimateClientUnaffected();
  });

  it('answers a frame that is not JSON with PARSE_ERROR and keeps the connection', async () => {
    const client = await raw();
    await client.write('{"id":1,"method":\n');
    const error = await client.next('a parse error', isTransportError('PARSE_ERROR'));
    expect(error.error?.code).toBe(-32700);
    expect(error.error?.message).toMatch(/JSON/);
    expect((await client.call(2, 'query', 'echo', { text: 'ok' })).result?.data).toBe('ok');
    await expectLegitimateClientUnaffected();
  });

  it('answers each of 6 JSON frames that are not requests with an error', async () => {
    const client = await raw();
    const frames = [
      '5',
      '"text"',
      'null',
      '{"hello":"world"}',
      '{"id":3,"method":"bogus","params":{}}',
      'PING',
    ];
    await client.write(frames.map((frame) => frame + '\n').join(''));
    await until(() => client.received.length === frames.length, 10_000, '6 error replies');
    expect(client.received.map((message) => [message.id, message.error?.data.code])).toEqual(
      frames.map(() => [null, 'PARSE_ERROR']),
    );
    expect((await client.call(4, 'query', 'echo', { text: 'ok' })).result?.data).toBe('ok');
    await expectLegitimateClientUnaffected();
  });

  it('skips a 1.5 MiB frame with PAYLOAD_TOO_LARGE and serves the next request on the connection', async () => {
    const client = await raw();
    const huge = JSON.stringify({
      id: 1,
      method: 'query',
      params: { path: 'echo', input: { text: 'h'.repeat(1.5 * 1024 * 1024) } },
    });
    await client.write(huge + '\n');
    const error = await client.next('an over-size error', isTransportError('PAYLOAD_TOO_LARGE'));
    expect(error.error?.message).toBe(
      `a frame of ${Buffer.byteLength(huge)} bytes exceeds the 1048576-byte limit and was skipped`,
    );
    expect((await client.call(2, 'query', 'echo', { text: 'next' })).result?.data).toBe('next');
    expect(client.received.some((message) => message.id === 1)).toBe(false);
    await expectLegitimateClientUnaffected();
  });

  it('closes a connection whose frame runs 2 MiB past the limit with no newline, saying why', async () => {
    const client = await raw();
    await client.write(Buffer.alloc(2 * 1024 * 1024 + 1, 'x'));
    const farewell = await client.next('the farewell', isTransportError('SERVICE_UNAVAILABLE'));
    expect(farewell.error?.message).toMatch(
      /^the server closed the connection: a frame ran past \d+ bytes with no newline/,
    );
    await client.closed;
    await expectLegitimateClientUnaffected();
  });

  it('answers an unknown procedure with NOT_FOUND for its id and a message without server paths', async () => {
    const client = await raw();
    const reply = await client.call(5, 'query', 'rm-rf', {});
    expect(reply.error).toEqual({
      code: -32004,
      message: 'no query procedure "rm-rf"',
      data: { code: 'NOT_FOUND', httpStatus: 404, path: 'rm-rf' },
    });
    await expectLegitimateClientUnaffected();
  });

  it('answers invalid input with BAD_REQUEST naming the field, with no stack and no server path', async () => {
    const client = await raw();
    const reply = await client.call(6, 'mutation', 'add', { a: 1, b: 'two' });
    expect(reply.error).toEqual({
      code: -32600,
      message: 'b: expected a number, got a string',
      data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'add' },
    });
    expect(JSON.stringify(reply)).not.toContain(__dirname);
    await expectLegitimateClientUnaffected();
  });

  it('still answers a peer that sends its request and shuts its writing side, as socat does', async () => {
    const client = await raw();
    client.socket.end(
      JSON.stringify({ id: 7, method: 'query', params: { path: 'echo', input: { text: 'bye' } } }) + '\n',
    );
    const reply = await client.next('the reply', (message) => message.id === 7);
    expect(reply.result?.data).toBe('bye');
    await client.closed;
  });

  it('survives 1000 connections opened and dropped, half of them mid-frame, and then answers a call', async () => {
    const partialFrame = '{"id":1,"method":"query","params":{"pa';
    let backlogRetries = 0;
    const openAndDrop = async (i: number): Promise<void> => {
      // connectUnix retries when the flood fills the listen backlog (EAGAIN), as a real client would.
      const socket = await connectUnix(server.socketPath, { onRetry: () => backlogRetries++ });
      if (i % 2 === 0) socket.write(partialFrame);
      socket.destroy();
    };
    for (let wave = 0; wave < 20; wave++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => openAndDrop(wave * 50 + i)));
    }
    await until(() => server.connections.length === 1001, 10_000, 'the server to have seen all 1000');
    await until(
      () => server.connections.slice(1).every((connection) => connection.signal.aborted),
      10_000,
      'the server to have closed all 1000',
    );
    await expectLegitimateClientUnaffected();
    const fresh = createStreamClient<ToyRouter>(await connectUnix(server.socketPath));
    await expect(fresh.client.add.mutate({ a: 1, b: 1 })).resolves.toEqual({ sum: 2 });
    fresh.close();
    expect(server.seen.errors).toEqual([]);
    // For the record, how often the backlog was full (it depends on the machine's load).
    console.log(`1000 connections opened and dropped; ${backlogRetries} connects retried on EAGAIN`);
  });
});
