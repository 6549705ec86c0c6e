// A procedure whose meta asks for it (`holdReply`) has its reply held for the next frame to the
// connection (src/rpc/held-reply.ts): the keys' reply rides behind their echo's event.
import { RawClient, requestLine as request, type WireMessage } from './raw-client';
import { startToyServer, type ToyServer } from './toy-server';

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

/** The ids of the messages received, and for a subscription's data, `bell N`. */
function order(messages: readonly WireMessage[]): string[] {
  return messages.map((m) =>
    m.id === 1 && m.result?.type === 'data' ? `bell ${String(m.result.data)}` : `${m.id}`,
  );
}

async function subscribeToBells(): Promise<void> {
  await client.write(request(1, 'subscription', 'bells'));
  await client.next('the bells to start', (m) => m.id === 1 && m.result?.type === 'started');
  // The subscription's listener is in place once a later call has been answered.
  await client.call(99, 'query', 'echo', { text: 'ready' });
  client.received.length = 0;
}

describe('a held reply', () => {
  it('arrives right after the event its call caused, on a connection with a subscription', async () => {
    await subscribeToBells();
    await client.write(request(2, 'mutation', 'press', { n: 7, ring: true }));
    await client.next('the reply to press', (m) => m.id === 2);
    expect(order(client.received)).toEqual(['bell 7', '2']);
    expect(client.received[1]).toEqual({ id: 2, result: { type: 'data', data: 7 } });
  });

  it('still arrives when no frame follows it', async () => {
    await subscribeToBells();
    const reply = await client.call(2, 'mutation', 'press', { n: 1, ring: false });
    expect(reply).toEqual({ id: 2, result: { type: 'data', data: 1 } });
  });

  it('goes out before the next held reply, so held replies keep their order', async () => {
    await subscribeToBells();
    await client.write(
      request(2, 'mutation', 'press', { n: 1, ring: false }) +
        request(3, 'mutation', 'press', { n: 2, ring: false }),
    );
    await client.next('the second reply', (m) => m.id === 3);
    expect(order(client.received)).toEqual(['2', '3']);
  });

  it('rides behind a reply written after it', async () => {
    await subscribeToBells();
    await client.write(
      request(2, 'mutation', 'press', { n: 1, ring: false }) + request(3, 'query', 'echo', { text: 'x' }),
    );
    await client.next('the held reply', (m) => m.id === 2);
    expect(order(client.received)).toEqual(['3', '2']);
  });

  it('is an error reply when it is too large for a frame, like any other', async () => {
    await subscribeToBells();
    const reply = await client.call(2, 'query', 'heldBlob', { bytes: 1024 * 1024 + 1 });
    expect(reply.error?.message).toMatch(/^the reply of \d+ bytes exceeds the 1048576-byte frame limit$/);
    expect(await client.call(3, 'query', 'echo', { text: 'still here' })).toEqual({
      id: 3,
      result: { type: 'data', data: 'still here' },
    });
  });

  it('is not held on a connection without a subscription: replies keep the order of the calls', async () => {
    await client.write(
      request(2, 'mutation', 'press', { n: 1, ring: true }) + request(3, 'query', 'echo', { text: 'x' }),
    );
    await client.next('the second reply', (m) => m.id === 3);
    expect(order(client.received.filter((m) => m.id !== 1))).toEqual(['2', '3']);
  });

  it('is not held for a procedure that does not ask for it', async () => {
    await subscribeToBells();
    await client.write(
      request(2, 'mutation', 'add', { a: 1, b: 2 }) + request(3, 'query', 'echo', { text: 'x' }),
    );
    await client.next('the second reply', (m) => m.id === 3);
    expect(order(client.received)).toEqual(['2', '3']);
  });
});
