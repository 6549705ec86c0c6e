import { connectUnix, createStreamClient, type Connection } from '../../src/rpc';
import { RawClient, requestLine } from './raw-client';
import { startToyServer, type ToyRouter, type ToyServer } from './toy-server';
import { until } from '../helpers/wait-for';

let server: ToyServer;

afterEach(async () => {
  await server.stop();
});

/** net.Socket's default writableHighWaterMark: where `write()` starts returning false. */
const HIGH_WATER_MARK = 16 * 1024;
const ITEM_BYTES = 1024;

async function stalledSubscriber(): Promise<{ raw: RawClient; connection: Connection }> {
  const raw = await RawClient.connect(server.socketPath);
  await until(() => server.connections.length === 1, 10_000, 'the server to see the connection');
  const connection = server.connections[0]!;
  // The reader stops reading at once; the kernel buffers fill, then the server's own.
  raw.socket.pause();
  await raw.write(
    JSON.stringify({
      id: 1,
      method: 'subscription',
      params: { path: 'flood', input: { itemBytes: ITEM_BYTES } },
    }) + '\n',
  );
  await until(
    () => connection.bufferedBytes() >= HIGH_WATER_MARK,
    10_000,
    'the server to buffer up to its high-water mark',
  );
  return { raw, connection };
}

describe('backpressure', () => {
  it('holds a fast producer at the high-water mark of a subscriber that stopped reading, without stalling others', async () => {
    server = await startToyServer();
    const { raw, connection } = await stalledSubscriber();
    const producedWhenFull = server.seen.produced.get(connection.id)!;

    // Meanwhile another subscriber to the same fast producer gets 2000 items, and calls are answered.
    const other = createStreamClient<ToyRouter>(await connectUnix(server.socketPath));
    let received = 0;
    const subscription = other.client.flood.subscribe(
      { itemBytes: ITEM_BYTES },
      { onData: () => received++ },
    );
    await until(() => received >= 2000, 10_000, '2000 items for the reading subscriber');
    await expect(other.client.echo.query({ text: 'not blocked' })).resolves.toBe('not blocked');

    // The stalled subscription's generator did not run ahead, and its buffer stayed near the mark.
    expect(server.seen.produced.get(connection.id)).toBe(producedWhenFull);
    expect(connection.bufferedBytes()).toBeLessThanOrEqual(HIGH_WATER_MARK + 2 * ITEM_BYTES);

    // Reading again releases the producer.
    raw.socket.resume();
    await until(
      () => server.seen.produced.get(connection.id)! > producedWhenFull + 100,
      10_000,
      'the producer to resume',
    );
    subscription.unsubscribe();
    other.close();
    raw.close();
  });

  it('a peer that reads only long after the server closed it still reads the reason last', async () => {
    server = await startToyServer();
    const { raw, connection } = await stalledSubscriber();
    // Only timers are faked: however long the peer stays away, every timer the server set runs first.
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date', 'hrtime', 'performance'],
    });
    try {
      const closed = new Promise((resolve) => connection.signal.addEventListener('abort', resolve));
      await raw.write(requestLine(2, 'mutation', 'hangUp', { reason: 'the test hung up' }));
      await closed;
      jest.advanceTimersByTime(24 * 60 * 60 * 1000);
    } finally {
      jest.useRealTimers();
    }
    raw.socket.resume();
    await raw.closed;
    expect(raw.received.at(-1)?.error).toMatchObject({
      message: 'the server closed the connection: the test hung up',
      data: { code: 'SERVICE_UNAVAILABLE' },
    });
    // Everything the subscriber was sent before it came through too, in order.
    const items = raw.received.filter((m) => m.id === 1 && m.result?.type === 'data');
    const numbers = items.map((m) => (m.result!.data as { n: number }).n);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('cuts off a peer that leaves more than maxBufferedBytes of replies unread, and no one else', async () => {
    const limit = 256 * 1024;
    server = await startToyServer({ maxBufferedBytes: limit });
    const bystander = createStreamClient<ToyRouter>(await connectUnix(server.socketPath));
    await bystander.client.echo.query({ text: 'first' });
    const raw = await RawClient.connect(server.socketPath);
    await until(() => server.connections.length === 2, 10_000, 'the server to see both connections');
    const flooder = server.connections[1]!;
    raw.socket.pause();
    const requests = Array.from(
      { length: 200 },
      (_, i) =>
        JSON.stringify({ id: i, method: 'query', params: { path: 'blob', input: { bytes: 16 * 1024 } } }) +
        '\n',
    );
    await raw.write(requests.join(''));
    await until(() => flooder.signal.aborted, 10_000, 'the flooder to be cut off');
    expect(String(flooder.signal.reason)).toContain(`the peer left more than ${limit} bytes unread`);
    await expect(bystander.client.echo.query({ text: 'unaffected' })).resolves.toBe('unaffected');
    bystander.close();
    raw.close();
  });
});
