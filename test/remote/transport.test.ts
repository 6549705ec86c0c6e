import { TRPCClientError } from '@trpc/client';
import {
  RemoteRefusedError,
  RemoteTargetError,
  RemoteUnreachableError,
} from '../../src/client/remote/errors';
import { StatusLog, TestPeer, TestServer } from './harness';

describe('remote transport over iroh (loopback, relays off)', () => {
  let server: TestServer;
  let peer: TestPeer;

  beforeEach(async () => {
    peer = new TestPeer();
    server = await TestServer.start([peer.id]);
  });

  afterEach(async () => {
    await peer.close();
    await server.stop();
  });

  test('an allowed peer opens a stream by ticket and calls a procedure, and the server knows its id', async () => {
    const transport = await peer.open(await server.ticket());
    const client = peer.client(transport.stream);
    await expect(client.whoami.query({})).resolves.toEqual({ peer: peer.id });
    await expect(client.echo.mutate({ text: 'héllo' })).resolves.toBe('héllo');
    expect(transport.peer).toBe(server.endpoint.id);
    expect(server.log.some((l) => l.includes(`${peer.id} connected`))).toBe(true);
  });

  test('a peer not on the allow-list is refused with the reason, and the refusal is logged with its id', async () => {
    const stranger = new TestPeer();
    try {
      const refused = stranger.open(await server.ticket());
      await expect(refused).rejects.toBeInstanceOf(RemoteRefusedError);
      await expect(refused).rejects.toThrow(
        `not allowed: ${stranger.id}; on the server run \`fux allow ${stranger.id}\``,
      );
      expect(server.log).toContainEqual(expect.stringContaining(`refused ${stranger.id}`));
      // It got no stream at all: nothing was served to it.
      expect(server.streams).toHaveLength(0);
    } finally {
      await stranger.close();
    }
  });

  test('a subscription streams over iroh and stops when unsubscribed', async () => {
    const transport = await peer.open(await server.ticket());
    const client = peer.client(transport.stream);
    const ticks = await new Promise<number[]>((resolve, reject) => {
      const got: number[] = [];
      const sub = client.ticks.subscribe(
        {},
        {
          onData: (n) => {
            got.push(n);
            if (got.length === 3) {
              sub.unsubscribe();
              resolve(got);
            }
          },
          onError: reject,
        },
      );
    });
    expect(ticks).toEqual([0, 1, 2]);
  });

  test('reopen() gives a second stream on the same connection', async () => {
    const transport = await peer.open(await server.ticket());
    const second = await transport.reopen();
    await expect(peer.client(second).echo.mutate({ text: 'two' })).resolves.toBe('two');
    await expect(peer.client(transport.stream).echo.mutate({ text: 'one' })).resolves.toBe('one');
    expect(server.streams).toHaveLength(2);
  });

  test('removing a peer from the allow-list ends its connection with the reason', async () => {
    const status = new StatusLog();
    const transport = await peer.open(await server.ticket(), { onStatus: status.listener });
    const client = peer.client(transport.stream);
    await client.echo.mutate({ text: 'before' });
    server.allowList.remove([peer.id]);
    expect(server.endpoint.disconnect(peer.id, `no longer allowed: ${peer.id}`)).toBe(1);
    const gone = await status.first('gone');
    expect(gone.kind === 'gone' && gone.error).toBeInstanceOf(RemoteRefusedError);
    await expect(client.echo.mutate({ text: 'after' })).rejects.toBeInstanceOf(TRPCClientError);
    await expect(transport.reopen()).rejects.toThrow(`no longer allowed: ${peer.id}`);
  });

  test('a server that stops tells its peers, and they do not redial', async () => {
    const status = new StatusLog();
    await peer.open(await server.ticket(), { onStatus: status.listener });
    await server.endpoint.stop();
    const gone = await status.first('gone');
    expect(gone.kind === 'gone' && gone.error.message).toContain('the fux server stopped');
    expect(status.seen.map((s) => s.kind)).not.toContain('reconnecting');
  });

  test('a bad target is a clear error', async () => {
    await expect(peer.open('not-a-peer')).rejects.toBeInstanceOf(RemoteTargetError);
    await expect(peer.open('endpointgarbage')).rejects.toThrow('looks like a ticket but does not parse');
    await expect(peer.open('abc')).rejects.toThrow('an endpoint id is 64 hex digits');
  });

  test('a bare id cannot be dialled with relays off, and the error says to use a ticket', async () => {
    const failed = peer.open(server.endpoint.id);
    await expect(failed).rejects.toBeInstanceOf(RemoteUnreachableError);
    await expect(failed).rejects.toThrow('fux id --ticket');
  });
});
