import { RawClient } from './raw-client';
import { startToyServer, type ToyServer } from './toy-server';
import { until } from '../helpers/wait-for';

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

describe('the wire format, spoken by hand', () => {
  it('answers a query and a mutation with exactly tRPC’s ws reply shapes', async () => {
    expect(await client.call(1, 'query', 'echo', { text: 'hi' })).toEqual({
      id: 1,
      result: { type: 'data', data: 'hi' },
    });
    expect(await client.call('two', 'mutation', 'add', { a: 1, b: 2 })).toEqual({
      id: 'two',
      result: { type: 'data', data: { sum: 3 } },
    });
  });

  it('streams a subscription as started, data…, and stopped after subscription.stop', async () => {
    await client.write(
      JSON.stringify({ id: 3, method: 'subscription', params: { path: 'flood', input: { itemBytes: 2 } } }) +
        '\n',
    );
    await until(
      () => client.received.filter((message) => message.result?.type === 'data').length >= 3,
      10_000,
      'three items',
    );
    expect(client.received[0]).toEqual({ id: 3, result: { type: 'started' } });
    expect(client.received[1]).toEqual({ id: 3, result: { type: 'data', data: { n: 1, item: 'yy' } } });
    await client.write(JSON.stringify({ id: 3, method: 'subscription.stop' }) + '\n');
    const stopped = await client.next('stopped', (message) => message.result?.type === 'stopped');
    expect(stopped).toEqual({ id: 3, result: { type: 'stopped' } });
    await until(() => server.seen.finishedSubscriptions === 1, 10_000, 'the generator to finish');
  });

  it('answers a batch (a JSON array of requests) with one reply per request', async () => {
    const batch = [1, 2, 3].map((b) => ({
      id: 10 + b,
      method: 'mutation',
      params: { path: 'add', input: { a: 1, b } },
    }));
    await client.write(JSON.stringify(batch) + '\n');
    await until(() => client.received.length === 3, 10_000, 'three replies');
    expect(client.received.map((message) => [message.id, message.result?.data])).toEqual(
      expect.arrayContaining([
        [11, { sum: 2 }],
        [12, { sum: 3 }],
        [13, { sum: 4 }],
      ]),
    );
  });

  it('ignores blank lines between requests', async () => {
    await client.write('\n  \r\n\t\n');
    expect(await client.call(20, 'query', 'echo', { text: 'x' })).toEqual({
      id: 20,
      result: { type: 'data', data: 'x' },
    });
    expect(client.received).toHaveLength(1);
  });

  it('decodes a request written in two pieces, split at every byte boundary', async () => {
    const frame = Buffer.from(
      JSON.stringify({ id: 0, method: 'query', params: { path: 'echo', input: { text: 'splît ✓' } } }) + '\n',
    );
    for (let split = 1; split < frame.length; split++) {
      // Same length at every step, so every split point lands at the same place in the frame.
      const request = Buffer.from(frame.toString('utf8').replace('"id":0', `"id":${split % 10}`));
      const before = client.received.length;
      await client.write(request.subarray(0, split));
      await new Promise((resolve) => setImmediate(resolve));
      await client.write(request.subarray(split));
      await until(() => client.received.length === before + 1, 10_000, `the reply for split ${split}`);
      expect(client.received[before]).toEqual({ id: split % 10, result: { type: 'data', data: 'splît ✓' } });
    }
  });

  it('runs a mutation sent without an id (a notification) in order with the calls, and answers nothing', async () => {
    const notify = (note: string): string =>
      JSON.stringify({ method: 'mutation', params: { path: 'remember', input: { note } } }) + '\n';
    await client.write(notify('first') + notify('second'));
    expect(await client.call(30, 'mutation', 'remember', { note: 'third' })).toEqual({
      id: 30,
      result: { type: 'data', data: 3 },
    });
    expect(server.seen.remembered).toEqual(['first', 'second', 'third']);
    expect(client.received).toHaveLength(1);
  });

  it('answers nothing to a notification that fails, and reports it to the server', async () => {
    await client.write(
      JSON.stringify({ method: 'mutation', params: { path: 'remember', input: { note: 7 } } }) + '\n',
    );
    await until(() => server.seen.errors.length === 1, 10_000, 'the failure to be reported');
    expect(await client.call(31, 'query', 'echo', { text: 'still here' })).toEqual({
      id: 31,
      result: { type: 'data', data: 'still here' },
    });
    expect(client.received).toHaveLength(1);
    expect(server.seen.remembered).toEqual([]);
  });

  it('keeps tRPC’s error for a query without an id: a query no one reads the answer of is a mistake', async () => {
    await client.write(
      JSON.stringify({ method: 'query', params: { path: 'echo', input: { text: 'x' } } }) + '\n',
    );
    const reply = await client.next('the error', (message) => message.error !== undefined);
    expect(reply.error?.message).toMatch(/id/);
  });
});
