import { RawClient, type WireMessage } from './raw-client';
import { createToyCaller, startToyServer, Observations, type ToyServer } from './toy-server';
import { until } from '../helpers/wait-for';
import type { Connection } from '../../src/rpc';

let server: ToyServer;
let client: RawClient;

beforeEach(async () => {
  server = await startToyServer();
  client = await RawClient.connect(server.socketPath);
});

afterEach(async () => {
  client.close();
  await server.stop();
});

async function subscribe(id: number, path: string, input: unknown, extra: object = {}): Promise<void> {
  await client.write(
    JSON.stringify({ id, method: 'subscription', params: { path, input, ...extra } }) + '\n',
  );
}

function repliesTo(id: number): WireMessage[] {
  return client.received.filter((message) => message.id === id);
}

/** The replies to `id` once its `stopped` (or an error, for a failed start) has come. */
async function allRepliesTo(id: number): Promise<WireMessage[]> {
  await client.next(`the end of ${id}`, (m) => m.id === id && m.result?.type === 'stopped');
  return repliesTo(id);
}

describe('a push stream (a subscription written from its own loop)', () => {
  it('goes on the wire exactly as an async generator does: started, data…, stopped', async () => {
    await subscribe(1, 'count', { to: 3 });
    await subscribe(2, 'ticks', { to: 3 });
    const generator = await allRepliesTo(1);
    const pushed = await allRepliesTo(2);
    expect(pushed).toEqual(generator.map((message) => ({ ...message, id: 2 })));
    expect(pushed.map((m) => m.result)).toEqual([
      { type: 'started' },
      { type: 'data', data: 1 },
      { type: 'data', data: 2 },
      { type: 'data', data: 3 },
      { type: 'stopped' },
    ]);
    expect(server.seen.finishedSubscriptions).toBe(2);
  });

  it('stops on subscription.stop, and its cleanup has run when `stopped` arrives', async () => {
    await subscribe(3, 'ticks', {});
    await until(() => repliesTo(3).length >= 3, 10_000, 'two ticks');
    await client.write(JSON.stringify({ id: 3, method: 'subscription.stop' }) + '\n');
    await client.next('stopped', (m) => m.id === 3 && m.result?.type === 'stopped');
    expect(server.seen.finishedSubscriptions).toBe(1);
    const count = repliesTo(3).length;
    await client.call(9, 'query', 'echo', { text: 'after' });
    expect(repliesTo(3)).toHaveLength(count);
  });

  it('ends a failing stream with its error, then stopped', async () => {
    await subscribe(4, 'ticks', { to: 5, failAt: 2 });
    const replies = await allRepliesTo(4);
    expect(replies.map((m) => m.result?.type ?? m.error?.data.code)).toEqual([
      'started',
      'data',
      'CONFLICT',
      'stopped',
    ]);
    expect(replies[2]!.error!.message).toBe('no tick 2');
    expect(server.seen.errors).toContain('no tick 2');
  });

  it('refuses a second subscription with the id of a live one', async () => {
    await subscribe(5, 'ticks', {});
    await client.next('started', (m) => m.id === 5 && m.result?.type === 'started');
    await subscribe(5, 'ticks', {});
    const refusal = await client.next('the refusal', (m) => m.id === 5 && m.error !== undefined);
    expect(refusal.error!.message).toBe('Duplicate id 5');
  });

  it('stops when the connection closes, running its cleanup', async () => {
    await subscribe(6, 'ticks', {});
    await until(() => repliesTo(6).length >= 2, 10_000, 'a tick');
    client.close();
    await until(() => server.seen.finishedSubscriptions === 1, 10_000, 'the cleanup');
  });

  it('is served as an async iterable where the direct path does not run it (a resumed subscription)', async () => {
    // A `lastEventId` sends the request to tRPC's ws adapter, which pulls the stream as an iterator.
    await subscribe(7, 'ticks', { to: 2 }, { lastEventId: 'x' });
    expect((await allRepliesTo(7)).map((m) => m.result)).toEqual([
      { type: 'started' },
      { type: 'data', data: 1 },
      { type: 'data', data: 2 },
      { type: 'stopped' },
    ]);
    expect(server.seen.finishedSubscriptions).toBe(1);
  });

  it('is an async iterable for a server-side caller, whose break stops the producer', async () => {
    const seen = new Observations();
    const conn: Connection = {
      id: 1,
      writable: () => Promise.resolve(),
      canWrite: () => true,
      bufferedBytes: () => 0,
      close: () => undefined,
      signal: new AbortController().signal,
    };
    const caller = createToyCaller({ conn, seen });
    const got: number[] = [];
    for await (const n of await caller.ticks({})) {
      got.push(n);
      if (n === 3) break;
    }
    expect(got).toEqual([1, 2, 3]);
    expect(seen.finishedSubscriptions).toBe(1);
  });
});
