// Every request is answered, whatever the size of its reply would be (src/rpc/reply-framer.ts), and
// what an error echoes of its request is cut short (src/rpc/error-formatter.ts).
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/rpc';
import { RawClient, type WireMessage } from './raw-client';
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

/** The longest line a reply took on the wire. */
const lineBytes = (message: WireMessage): number => Buffer.byteLength(JSON.stringify(message));

describe('a request whose reply would not fit in a frame', () => {
  it('is answered for a 900 KB procedure path, with the path cut short in the message and data', async () => {
    const path = `p${'a'.repeat(900_000)}z`;
    const reply = await client.call(1, 'query', path, {});
    expect(reply.error?.data.code).toBe('NOT_FOUND');
    expect(reply.error?.message).toMatch(/^no query procedure "pa+… \(\d+ characters left out\) …a+z"$/);
    expect(reply.error?.data.path).toMatch(/^pa+… \(\d+ characters left out\) …a+z$/);
    expect(lineBytes(reply)).toBeLessThan(1000);
  });

  it('is answered when its error repeats 900 KB of input, cut in the middle so both ends still read', async () => {
    const reply = await client.call(2, 'query', 'lookUp', { name: 'n'.repeat(900_000) });
    expect(reply.error?.data.code).toBe('NOT_FOUND');
    const message = reply.error!.message;
    expect(message.length).toBeLessThanOrEqual(2000 + 50);
    expect(message).toMatch(/^no thing named n+… \(\d+ characters left out\) …n+; `things` lists them$/);
  });

  it('is answered in a batch too (the adapter path)', async () => {
    const path = 'q'.repeat(900_000);
    await client.write(`${JSON.stringify([{ id: 3, method: 'query', params: { path, input: {} } }])}\n`);
    const reply = await client.next('the reply to the batch', (m) => m.id === 3);
    expect(reply.error?.data.code).toBe('NOT_FOUND');
    expect(lineBytes(reply)).toBeLessThan(1000);
  });

  it('with an id too long to echo gets an error with id null saying so, and the connection goes on', async () => {
    const id = 'i'.repeat(DEFAULT_MAX_FRAME_BYTES - 100);
    await client.write(`${JSON.stringify({ id, method: 'query', params: { path: 'failOnPurpose' } })}\n`);
    const reply = await client.next('the reply to the long id', (m) => m.id === null);
    expect(reply.error?.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(reply.error?.message).toBe(
      `the reply to a request with an id of ${id.length} characters does not fit in a frame; use a shorter id`,
    );
    expect((await client.call(4, 'query', 'echo', { text: 'still here' })).result?.data).toBe('still here');
  });

  it('of data gets PAYLOAD_TOO_LARGE to its own id, and the log a short line', async () => {
    const reply = await client.call(5, 'query', 'blob', { bytes: 2 * DEFAULT_MAX_FRAME_BYTES });
    expect(reply.error?.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(server.seen.errors.at(-1)).toMatch(
      /^the reply of \d+ bytes exceeds the 1048576-byte frame limit$/,
    );
  });
});
