/**
 * Remote attach end to end, with the built CLI and server: two (or three) fux homes on one machine,
 * each its own XDG dirs and so its own key, talking over iroh on loopback with relays and discovery
 * off. B is the laptop that attaches to A; C is a stranger.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, fuxBin, until } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';
import { openRemote } from '../../src/client/remote/connect';
import { createStreamClient } from '../../src/rpc/client';
import type { AppRouter } from '../../src/client';

const OFFLINE = { FUX_IROH_RELAY: 'disabled', FUX_IROH_BIND: '127.0.0.1:0' };

function offlineHome(): FuxHome {
  const home = new FuxHome();
  Object.assign(home.env, OFFLINE);
  return home;
}

function ok(home: FuxHome, args: string[]): string {
  const r = home.cli(args);
  if (r.code !== 0) throw new Error(`fux ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

const keyFile = (home: FuxHome): string => path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'iroh.key');
const allowFile = (home: FuxHome): string => path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'allow');
const serverLog = (home: FuxHome): string =>
  fs.readFileSync(path.join(home.env.XDG_STATE_HOME!, 'fux', 'server.log'), 'utf8');

async function restart(home: FuxHome): Promise<void> {
  ok(home, ['kill-server']);
  await until(() => home.serverPid() === undefined, 10_000, 'the server to stop');
  await home.startServer();
}

let a: FuxHome;
let b: FuxHome;

beforeEach(() => {
  a = offlineHome();
  b = offlineHome();
});

afterEach(async () => {
  await a.close();
  await b.close();
});

describe('identity', () => {
  test('fux id works without a server, keeps the key 0600, and the server has the same id across restarts', async () => {
    const id = ok(a, ['id']);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(keyFile(a)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(keyFile(a))).mode & 0o777).toBe(0o700);
    expect(a.serverPid()).toBeUndefined();

    await a.startServer();
    const ticket = JSON.parse(ok(a, ['id', '--ticket', '--json'])) as { id: string; ticket: string };
    expect(ticket.id).toBe(id);
    expect(ticket.ticket).toMatch(/^endpoint/);
    await restart(a);
    expect(JSON.parse(ok(a, ['id', '--ticket', '--json'])).id).toBe(id);
    expect(ok(a, ['id', '--json'])).toBe(JSON.stringify({ id }));
  });

  test('two homes are two identities', () => {
    expect(ok(a, ['id'])).not.toBe(ok(b, ['id']));
  });
});

describe('allow-list', () => {
  test('fux allow adds, lists and removes ids, and the list survives a server restart (0600)', async () => {
    await a.startServer();
    const bId = ok(b, ['id']);
    expect(ok(a, ['allow', bId])).toBe(`allowed ${bId}`);
    expect(ok(a, ['allow', bId.toUpperCase()])).toBe(`${bId} was already allowed`);
    expect(fs.statSync(allowFile(a)).mode & 0o777).toBe(0o600);
    await restart(a);
    expect(ok(a, ['allow', '--list'])).toBe(bId);
    expect(JSON.parse(ok(a, ['allow', '--list', '--json']))).toEqual({ allowed: [bId] });
    // At boot the server brought its endpoint up, since someone is allowed.
    await until(() => serverLog(a).includes('remote: endpoint'), 10_000, 'the endpoint at boot');
    expect(ok(a, ['allow', '--remove', bId])).toBe(`removed ${bId}`);
    expect(ok(a, ['allow', '--list'])).toBe('');
  });

  test('a bad id is a clear error and changes nothing', async () => {
    await a.startServer();
    const r = a.cli(['allow', 'not-an-id']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"not-an-id" is not an endpoint id');
    expect(ok(a, ['allow', '--list'])).toBe('');
  });

  test('fux serve --allow adds the ids and brings the endpoint up', async () => {
    const bId = ok(b, ['id']);
    const serve = a.spawnCli(['serve', '--allow', bId]);
    let err = '';
    serve.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await until(() => err.includes('remote: endpoint'), 10_000, 'the endpoint of fux serve --allow');
    expect(err).toContain(`remote: allowed ${bId}`);
    expect(ok(a, ['allow', '--list'])).toBe(bId);
  });

  test('fux serve --allow with a server already running adds the ids to its allow-list and says so', async () => {
    const bId = ok(b, ['id']);
    await a.startServer();
    const r = a.cli(['serve', '--allow', bId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `a fux server (pid ${a.serverPid()}) is already running on ${a.socket}; added to its allow-list:\nallowed ${bId}\n`,
    );
    expect(ok(a, ['allow', '--list'])).toBe(bId);
    expect(a.cli(['serve', '--allow', bId]).stdout).toContain(`${bId} was already allowed`);
  });

  test('fux serve --allow with a bad id does not start a server', () => {
    const r = a.cli(['serve', '--allow', 'xyz']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"xyz" is not an endpoint id');
    expect(a.serverPid()).toBeUndefined();
  });
});

describe('fux connect', () => {
  test('a machine that is not allowed is refused with what to do, and the refusal is logged with its id', async () => {
    await a.startServer();
    ok(a, ['allow', ok(b, ['id'])]);
    const ticket = ok(a, ['id', '--ticket']);
    const c = offlineHome();
    try {
      const cId = ok(c, ['id']);
      const r = c.cli(['connect', ticket]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`not allowed: ${cId}; on the server run \`fux allow ${cId}\``);
      expect(serverLog(a)).toContain(`refused ${cId}`);
    } finally {
      await c.close();
    }
  });

  test('a server that does not answer is a clear error', async () => {
    await a.startServer();
    const ticket = ok(a, ['id', '--ticket']);
    ok(a, ['kill-server']);
    await until(() => a.serverPid() === undefined, 10_000, 'the server to stop');
    const r = b.cli(['connect', ticket], { env: { FUX_REMOTE_CONNECT_TIMEOUT_MS: '1500' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not reach ${ticketId(a)}`);
  });

  test('a bad target is a clear error', () => {
    const r = b.cli(['connect', 'nonsense']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is neither an endpoint id nor a ticket');
  });

  test('the control API is not reachable over iroh: an allowed peer can call attach procedures only', async () => {
    await a.startServer();
    ok(a, ['allow', ok(b, ['id'])]);
    const remote = await openRemote(ok(a, ['id', '--ticket']), { env: b.env });
    const { client, close } = createStreamClient<AppRouter>(remote.stream);
    try {
      const notServed = /^no (query|mutation) procedure "/;
      await expect(client.list.query({})).rejects.toThrow(notServed);
      await expect(client.server.kill.mutate({})).rejects.toThrow(notServed);
      const control = client as unknown as {
        remote: { allow: { list: { query(i: object): Promise<unknown> } } };
      };
      await expect(control.remote.allow.list.query({})).rejects.toThrow(notServed);
      // The attach procedures are there (this one fails only because no session is attached).
      await expect(client.attach.history.query({ client: 'none', pane: 1, lines: 1 })).rejects.not.toThrow(
        notServed,
      );
      expect(a.serverPid()).toBeDefined();
    } finally {
      close();
      await remote.close();
    }
  });

  test("B attaches to A by ticket, sees A's pane, types into it, and detaches", async () => {
    await a.startServer();
    const fuxA = await a.client();
    const cwd = a.dir;
    const env = { ...a.env, PS1: '$ ' };
    const { id } = await fuxA.new.mutate({ argv: ['sh', '-c', 'echo from-A-$((6*7)); exec sh'], cwd, env });
    ok(a, ['allow', ok(b, ['id'])]);
    const ticket = ok(a, ['id', '--ticket']);

    const outer = new OuterTmux(b.dir, { ...b.env, PS1: '$ ' });
    try {
      const t = outer.open('laptop', 80, 24, `${process.execPath} ${fuxBin} connect ${ticket}`);
      await outer.waitFor(t, (l) => l.some((x) => x.includes('from-A-42')), "A's pane on B's terminal");
      outer.keys(t, ['echo typed-on-B-$((1+1))', 'Enter']);
      await outer.waitFor(t, (l) => l.some((x) => x.includes('typed-on-B-2')), 'the echo on B');
      const captured = await fuxA.capture.query({ id });
      expect(captured.text).toContain('typed-on-B-2');

      outer.keys(t, ['C-a', 'd']);
      await outer.waitFor(t, (l) => l.some((x) => x.includes('[detached]')), 'the detach');
      await until(() => outer.dead(t), 10_000, 'fux connect to exit');
      // A's pane runs on.
      const list = await fuxA.list.query({});
      expect(list.workspaces.flatMap((w) => w.panes.map((p) => p.id))).toContain(id);
      expect(serverLog(a)).toContain(`remote: ${ok(b, ['id'])} connected from`);
    } finally {
      outer.kill();
    }
  });
});

/** A's endpoint id, for messages that name it. */
function ticketId(home: FuxHome): string {
  return ok(home, ['id']);
}
