import { TRPCClientError } from '@trpc/client';
import { connectUnix, createStreamClient, type StreamClient } from '../../src/rpc';
import { startToyServer, type ToyRouter, type ToyServer } from './toy-server';
import { until } from '../helpers/wait-for';

let server: ToyServer;
const clients: StreamClient<ToyRouter>[] = [];

async function newClient(): Promise<StreamClient<ToyRouter>> {
  const client = createStreamClient<ToyRouter>(await connectUnix(server.socketPath));
  clients.push(client);
  return client;
}

/** The error a call rejects with, so a test can look at its code and message. */
async function failureOf(call: Promise<unknown>): Promise<TRPCClientError<ToyRouter>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof TRPCClientError) return error as TRPCClientError<ToyRouter>;
    throw error;
  }
  throw new Error('the call succeeded');
}

beforeEach(async () => {
  server = await startToyServer();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await server.stop();
});

describe('the stream client', () => {
  it('calls queries and mutations and returns their results', async () => {
    const { client } = await newClient();
    await expect(client.echo.query({ text: 'héllo' })).resolves.toBe('héllo');
    await expect(client.add.mutate({ a: 2, b: 40 })).resolves.toEqual({ sum: 42 });
  });

  it('sends notifications that the server runs in order with calls, and that resolve nothing', async () => {
    const { client, notify } = await newClient();
    notify('remember', { note: 'a' });
    notify('remember', { note: 'b' });
    await expect(client.remember.mutate({ note: 'c' })).resolves.toBe(3);
    expect(server.seen.remembered).toEqual(['a', 'b', 'c']);
  });

  it('settles a call without aborting anything (an abort builds a DOMException with a stack)', async () => {
    const { client } = await newClient();
    await client.echo.query({ text: 'warm' });
    const abort = jest.spyOn(AbortController.prototype, 'abort');
    try {
      await expect(client.add.mutate({ a: 1, b: 1 })).resolves.toEqual({ sum: 2 });
      await expect(client.echo.query({ text: 'x' })).resolves.toBe('x');
      await new Promise((resolve) => setImmediate(resolve));
      expect(abort).not.toHaveBeenCalled();
    } finally {
      abort.mockRestore();
    }
  });

  it('rejects a call its signal aborts, and the connection goes on serving', async () => {
    const { client } = await newClient();
    const stop = new AbortController();
    const pending = client.never.query(undefined, { signal: stop.signal });
    stop.abort();
    await expect(pending).rejects.toThrow('the call to never was aborted');
    await expect(client.echo.query({ text: 'after' })).resolves.toBe('after');
  });

  it('is not a thenable, so awaiting the client gives the client', async () => {
    const stream = await newClient();
    const awaited: unknown = await (stream.client as unknown as Promise<unknown>);
    expect(awaited).toBe(stream.client);
    expect(stream.client.echo).toBe(stream.client.echo);
  });

  it('refuses a notification once the connection is closed', async () => {
    const stream = await newClient();
    stream.close();
    expect(() => stream.notify('remember', { note: 'late' })).toThrow(/closed/);
  });

  it('answers 250 concurrent calls from each of 4 clients, each with its own result', async () => {
    const all = await Promise.all([newClient(), newClient(), newClient(), newClient()]);
    const results = await Promise.all(
      all.map(({ client }, c) =>
        Promise.all(Array.from({ length: 250 }, (_, i) => client.add.mutate({ a: c * 1000, b: i }))),
      ),
    );
    results.forEach((sums, c) => expect(sums.map((r) => r.sum)).toEqual(sums.map((_, i) => c * 1000 + i)));
  });

  it('streams a subscription from started to its own end', async () => {
    const { client } = await newClient();
    const events: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.count.subscribe(
        { to: 3 },
        {
          onStarted: () => events.push('started'),
          onData: (n) => events.push(`data ${n}`),
          onStopped: () => events.push('stopped'),
          onComplete: resolve,
          onError: reject,
        },
      );
    });
    expect(events).toEqual(['started', 'data 1', 'data 2', 'data 3', 'stopped']);
    await until(() => server.seen.finishedSubscriptions === 1, 10_000, 'the generator to finish');
  });

  it('stops the server-side generator when the subscriber unsubscribes', async () => {
    const { client } = await newClient();
    let received = 0;
    const subscription = client.flood.subscribe({ itemBytes: 10 }, { onData: () => received++ });
    await until(() => received >= 5, 10_000, 'some items');
    subscription.unsubscribe();
    await until(() => server.seen.finishedSubscriptions === 1, 10_000, 'the generator to run its finally');
    // The connection is still good after the stop.
    await expect(client.echo.query({ text: 'after' })).resolves.toBe('after');
  });

  it('iterates a subscription as an async iterable and stops it on break', async () => {
    const { client } = await newClient();
    const seen: number[] = [];
    for await (const item of client.flood.subscribe({ itemBytes: 1 })) {
      seen.push(item.n);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    await until(() => server.seen.finishedSubscriptions === 1, 10_000, 'the generator to run its finally');
  });

  it('reports an unknown procedure with tRPC’s NOT_FOUND and a readable message', async () => {
    const { client } = await newClient();
    // A client built for a larger router than the server serves (an older server, say).
    const newer = client as unknown as { missing: { query(input: object): Promise<unknown> } };
    const error = await failureOf(newer.missing.query({}));
    expect(error.data?.code).toBe('NOT_FOUND');
    expect(error.message).toBe('no query procedure "missing"');
  });

  it('reports invalid input as BAD_REQUEST naming the field, without a stack', async () => {
    const { client } = await newClient();
    const error = await failureOf(client.add.mutate({ a: 1, b: 'two' as unknown as number }));
    expect(error.data?.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('b: expected a number, got a string');
    expect(error.shape?.data).not.toHaveProperty('stack');
  });

  it('passes on an error thrown on purpose and hides one that names a server file', async () => {
    const { client } = await newClient();
    const purposeful = await failureOf(client.failOnPurpose.query());
    expect(purposeful.data?.code).toBe('NOT_FOUND');
    expect(purposeful.message).toBe('no pane 7 in workspace main');
    const unexpected = await failureOf(client.failUnexpectedly.query());
    expect(unexpected.data?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(unexpected.shape)).not.toContain(__dirname);
    expect(server.seen.errors.some((message) => message.includes('secret'))).toBe(true);
  });

  it('fails a call whose reply would exceed 1 MiB and keeps the connection', async () => {
    const { client } = await newClient();
    const error = await failureOf(client.blob.query({ bytes: 2 * 1024 * 1024 }));
    expect(error.data?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toMatch(/^the reply of \d+ bytes exceeds the 1048576-byte frame limit$/);
    await expect(client.blob.query({ bytes: 1000 })).resolves.toHaveLength(1000);
  });

  it('refuses to send a request over 1 MiB and keeps the connection', async () => {
    const { client } = await newClient();
    const error = await failureOf(client.echo.query({ text: 'z'.repeat(1024 * 1024) }));
    expect(error.message).toMatch(/exceeds the 1048576-byte frame limit/);
    await expect(client.echo.query({ text: 'small' })).resolves.toBe('small');
  });

  it('fails pending calls and subscriptions with the reason the server gave for closing', async () => {
    const { client } = await newClient();
    const pending = failureOf(client.never.query());
    const subscriptionError = new Promise<Error>((resolve) =>
      client.flood.subscribe({ itemBytes: 1 }, { onError: (error) => resolve(error) }),
    );
    await until(() => server.seen.produced.size === 1, 10_000, 'the subscription to start');
    await client.hangUp.mutate({ reason: 'the subscriber fell behind' }).catch(() => undefined);
    const error = await pending;
    expect(error.message).toBe('the server closed the connection: the subscriber fell behind');
    expect(error.data?.code).toBe('SERVICE_UNAVAILABLE');
    expect((await subscriptionError).message).toBe(error.message);
  });

  it('fails pending calls when the stream drops, and every later call at once', async () => {
    const { client } = await newClient();
    const pending = failureOf(client.never.query());
    await until(() => server.connections.length === 1, 10_000, 'the server to see the connection');
    for (const stream of server.connections) stream.close('test');
    expect((await pending).message).toMatch(/closed/);
    const later = await failureOf(client.echo.query({ text: 'late' }));
    expect(later.message).toBe((await pending).message);
  });

  it('lets close() fail what is pending and frees the server side', async () => {
    const streamClient = await newClient();
    const pending = failureOf(streamClient.client.never.query());
    await until(() => server.connections.length === 1, 10_000, 'the server to see the connection');
    streamClient.close();
    expect((await pending).message).toBe('the client closed the connection');
    await until(() => server.connections[0]!.signal.aborted, 10_000, 'the server side to close');
  });
});
