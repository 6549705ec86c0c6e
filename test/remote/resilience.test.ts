import { RemoteGoneError } from '../../src/client/remote/errors';
import { StatusLog, TestPeer } from './harness';
import { FrozenServer } from './frozen-server';

const after = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/*
 * The outage is made by freezing the server process (SIGSTOP): no path to it answers, so the cut
 * is total. A UDP relay in front of the server (the ticket pointing at the relay) does not cut
 * every path: iroh learns the server's own address on the first connection and may open a path
 * straight to it, which a relay cannot drop.
 */
describe('a remote session whose server is frozen (SIGSTOP: no path answers)', () => {
  let server: FrozenServer;
  let peer: TestPeer;

  beforeEach(async () => {
    peer = new TestPeer();
    server = await FrozenServer.start(peer.id);
  });

  afterEach(async () => {
    await peer.close();
    await server.stop();
  });

  test('a 4 s outage stalls the stream, the transport says so, and the same stream carries on after it', async () => {
    const status = new StatusLog();
    const transport = await peer.open(server.ticket, {
      onStatus: status.listener,
      stallAfterMs: 1000,
      redialAfterMs: 60_000,
    });
    const client = peer.client(transport.stream);
    await expect(client.echo.mutate({ text: 'before' })).resolves.toBe('before');

    server.freeze();
    const during = client.echo.mutate({ text: 'during' });
    await status.first('stalled');
    await after(3000); // the rest of the outage
    server.thaw();

    await expect(during).resolves.toBe('during');
    await status.first('resumed');
    await expect(client.echo.mutate({ text: 'after' })).resolves.toBe('after');
    // One connection, one stream: QUIC carried the call over the outage; nothing was redialled.
    expect(server.streams).toHaveLength(1);
    expect(status.kinds()).not.toContain('reconnecting');
    expect(server.log.filter((l) => l.includes(' connected from '))).toHaveLength(1);
  }, 20_000);

  test('past the redial limit the old session ends, redials fail while it is frozen, and one succeeds after', async () => {
    const status = new StatusLog();
    const transport = await peer.open(server.ticket, {
      onStatus: status.listener,
      stallAfterMs: 500,
      redialAfterMs: 1500,
      connectTimeoutMs: 1000,
      retentionMs: 30_000,
    });
    const first = peer.client(transport.stream);
    await expect(first.echo.mutate({ text: 'before' })).resolves.toBe('before');

    server.freeze();
    await status.first('reconnecting');
    // The old connection was given up, so its session is over.
    await expect(first.echo.mutate({ text: 'on the old stream' })).rejects.toThrow();
    await status.nth('reconnecting', 2); // the first redial met the frozen server too
    server.thaw();

    await status.first('reconnected');
    const second = peer.client(await transport.reopen());
    await expect(second.whoami.query({})).resolves.toEqual({ peer: peer.id });
    await expect(second.echo.mutate({ text: 'after' })).resolves.toBe('after');
    expect(server.log.filter((l) => l.includes(' connected from ')).length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  test('a server that does not come back within the retention time is reported gone', async () => {
    const status = new StatusLog();
    const transport = await peer.open(server.ticket, {
      onStatus: status.listener,
      stallAfterMs: 300,
      redialAfterMs: 800,
      connectTimeoutMs: 500,
      retentionMs: 2500,
    });
    server.freeze();
    const gone = await status.first('gone');
    expect(gone.kind === 'gone' && gone.error).toBeInstanceOf(RemoteGoneError);
    expect(gone.kind === 'gone' && gone.error.message).toContain('could not reconnect within 3 s');
    await expect(transport.reopen()).rejects.toBeInstanceOf(RemoteGoneError);
  }, 20_000);
});
