import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { bindEndpoint } from '../../src/rpc/iroh/endpoint';
import { answerStream, openStream } from '../../src/rpc/iroh/handshake';
import { SecretKey, type Endpoint } from '../../src/rpc/iroh/iroh';

const PROTOCOL = 'test/duplex/1';

/** Two endpoints on loopback (relays off), and one stream between them as a Duplex on each side. */
async function streamPair(): Promise<{ opener: Duplex; acceptor: Duplex; close(): Promise<void> }> {
  const bind = (): Promise<Endpoint> =>
    bindEndpoint({
      secretKey: SecretKey.generate(),
      alpns: [PROTOCOL],
      relays: false,
      bindAddr: '127.0.0.1:0',
    });
  const [server, client] = await Promise.all([bind(), bind()]);
  const accepted = (async () => {
    const incoming = await server.acceptNext();
    const connection = await (await incoming!.accept()).connect();
    return answerStream(await connection.acceptBi(), PROTOCOL);
  })();
  const connection = await client.connect(server.addr(), Array.from(Buffer.from(PROTOCOL)));
  const opener = await openStream(connection, PROTOCOL);
  const acceptor = await accepted;
  return {
    opener,
    acceptor,
    close: async () => {
      opener.destroy();
      acceptor.destroy();
      await Promise.all([client.close(), server.close()]);
    },
  };
}

function readAll(stream: Duplex): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

describe('an iroh stream as a Node Duplex', () => {
  test("carries bytes both ways intact, and end() on one side is the end of the other side's reading", async () => {
    const pair = await streamPair();
    try {
      const payload = randomBytes(3 * 1024 * 1024 + 17);
      const received = readAll(pair.acceptor);
      pair.opener.end(payload);
      expect((await received).equals(payload)).toBe(true);

      const reply = readAll(pair.opener);
      pair.acceptor.end('done\n');
      expect((await reply).toString()).toBe('done\n');
    } finally {
      await pair.close();
    }
  });

  test('a write completes only as the peer reads: unread bytes in flight stay bounded by QUIC flow control', async () => {
    const pair = await streamPair();
    try {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const total = 8 * 1024 * 1024; // several times the stream window (about 1.2 MB here)
      let written = 0;
      let read = 0;
      let mostInFlight = 0;
      // The reader does not read at first: nothing is consumed on the far side.
      pair.acceptor.pause();
      pair.acceptor.on('data', (c: Buffer) => (read += c.length));
      const allWritten = new Promise<void>((resolve, reject) => {
        for (let sent = 0; sent < total; sent += chunk.length) {
          pair.opener.write(chunk, (error) => {
            if (error) return reject(error);
            written += chunk.length;
            mostInFlight = Math.max(mostInFlight, written - read);
            if (written === total) resolve();
          });
        }
      });
      // With writes acknowledged before iroh took them, all 8 MiB would be "written" by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(written).toBeLessThan(total);
      expect(pair.opener.writableNeedDrain).toBe(true);
      pair.acceptor.resume();
      await allWritten;
      expect(mostInFlight).toBeLessThan(total / 2);
    } finally {
      await pair.close();
    }
  }, 30_000);

  test('destroying one side ends the other side with ECONNRESET, as a dropped socket would', async () => {
    const pair = await streamPair();
    try {
      const failed = new Promise<NodeJS.ErrnoException>((resolve) => pair.acceptor.once('error', resolve));
      pair.acceptor.resume();
      pair.opener.destroy();
      const error = await failed;
      expect(error.code).toBe('ECONNRESET');
      expect(error.message).not.toContain('Stack backtrace');
    } finally {
      await pair.close();
    }
  });
});
