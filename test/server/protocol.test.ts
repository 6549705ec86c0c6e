import * as crypto from 'node:crypto';
import * as net from 'node:net';
import { FuxHome, openAndDrop } from '../helpers/home';
import type { FuxClient } from '../../src/client';

let home: FuxHome;
let fux: FuxClient;
beforeAll(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
  await fux.new.mutate({ argv: ['sleep', '300'] });
});
afterAll(() => home.close());

/** A raw connection speaking newline-JSON as a script without our client would. */
class Raw {
  readonly sock: net.Socket;
  private buf = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  closed = false;

  constructor(path: string) {
    this.sock = net.connect(path);
    this.sock.setEncoding('utf8');
    this.sock.on('data', (d: string) => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        this.lines.push(this.buf.slice(0, i));
        this.buf = this.buf.slice(i + 1);
      }
      this.waiter?.();
    });
    this.sock.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
    this.sock.on('error', () => undefined);
  }

  send(text: string | Buffer): void {
    this.sock.write(text);
  }

  /** The next line as JSON, or undefined if the server closed the connection first. */
  async next(): Promise<Record<string, unknown> | undefined> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) return JSON.parse(line) as Record<string, unknown>;
      if (this.closed) return undefined;
      await new Promise<void>((r) => (this.waiter = r));
    }
  }

  async call(id: number, path: string, input: unknown, method = 'query'): Promise<Record<string, unknown>> {
    this.send(`${JSON.stringify({ id, method, params: { path, input } })}\n`);
    const reply = await this.next();
    if (!reply) throw new Error('connection closed');
    return reply;
  }

  end(): void {
    this.sock.destroy();
  }
}

const errorOf = (reply: Record<string, unknown> | undefined): { message: string; data: { code: string } } =>
  reply?.error as { message: string; data: { code: string } };

describe('the wire protocol', () => {
  test('a raw socket calls list with one JSON line and gets one line back with the same id', async () => {
    const raw = new Raw(home.socket);
    const reply = await raw.call(41, 'list', {});
    expect(reply.id).toBe(41);
    const data = (reply.result as { type: string; data: { workspaces: Array<{ name: string }> } }).data;
    expect(data.workspaces.map((w) => w.name)).toEqual(['main']);
    raw.end();
  });

  test('invalid JSON is answered with an error and the connection stays usable', async () => {
    const raw = new Raw(home.socket);
    raw.send('{"id": 1, "method": \n');
    const err = await raw.next();
    expect(err?.id).toBeNull();
    expect(errorOf(err).message).toMatch(/json/i);
    expect((await raw.call(2, 'list', {})).result).toBeDefined();
    raw.end();
  });

  test('an unknown procedure is a NOT_FOUND error naming it', async () => {
    const raw = new Raw(home.socket);
    const reply = await raw.call(3, 'noSuchThing', {});
    expect(errorOf(reply).data.code).toBe('NOT_FOUND');
    expect(errorOf(reply).message).toBe('no query procedure "noSuchThing"');
    raw.end();
  });

  test.each([
    ['a wrong type', 'capture', { id: 'one' }, 'query', 'id: expected a number, got a string'],
    ['a missing field', 'capture', {}, 'query', 'id: missing, expected a number'],
    ['a fraction', 'resize', { id: 1, delta: 1.5 }, 'mutation', 'delta: expected an integer, got 1.5'],
    [
      'a bad enum value',
      'split',
      { direction: 'diagonal' },
      'mutation',
      'direction: expected one of "h", "v", got "diagonal"',
    ],
    ['an empty list', 'sendKeys', { id: 1, keys: [] }, 'mutation', 'keys: must not be empty'],
    [
      'two problems',
      'capture',
      { id: 0, scrollback: 'all' },
      'query',
      'id: must be more than 0; scrollback: expected a number, got a string',
    ],
  ])('%s reads as one line with the field: %j', async (_what, path, input, method, message) => {
    const raw = new Raw(home.socket);
    const reply = await raw.call(4, path, input, method);
    expect(errorOf(reply)).toEqual({
      code: -32600,
      message,
      data: { code: 'BAD_REQUEST', httpStatus: 400, path },
    });
    raw.end();
  });

  test('invalid inputs are BAD_REQUEST errors that name the field, never a stack or a server path', async () => {
    const raw = new Raw(home.socket);
    const cases: Array<[string, unknown, string]> = [
      ['capture', { id: 'one' }, 'query'],
      ['capture', { id: -1 }, 'query'],
      ['sendKeys', { id: 1, keys: [] }, 'mutation'],
      ['split', { direction: 'diagonal' }, 'mutation'],
      ['focus', { target: 'north' }, 'mutation'],
      ['resize', { id: 1, delta: 1.5 }, 'mutation'],
      ['capture', { id: 1, scrollback: 1e12 }, 'query'],
    ];
    expect(cases).toHaveLength(7);
    let n = 10;
    for (const [path, input, method] of cases) {
      const reply = await raw.call(n++, path, input, method);
      const err = errorOf(reply);
      expect(err).toBeDefined();
      expect(JSON.stringify(reply)).not.toMatch(/\/work\/|node_modules|at .*\(/);
      expect(err.data.code).toBe('BAD_REQUEST');
    }
    raw.end();
  });

  test('the typed client the CLI uses gets the same messages: a wrong type, a missing field, no such procedure', async () => {
    const untyped = fux as unknown as {
      capture: { query(input: object): Promise<unknown> };
      noSuchThing: { query(input: object): Promise<unknown> };
    };
    await expect(untyped.capture.query({ id: 'one' })).rejects.toThrow(
      /^id: expected a number, got a string$/,
    );
    await expect(untyped.capture.query({})).rejects.toThrow(/^id: missing, expected a number$/);
    await expect(untyped.noSuchThing.query({})).rejects.toThrow(/^no query procedure "noSuchThing"$/);
  });

  test('a frame over 1 MiB is refused and the connection resynchronises at the next line', async () => {
    const raw = new Raw(home.socket);
    raw.send(
      `${JSON.stringify({ id: 5, method: 'query', params: { path: 'list', input: { pad: 'x'.repeat(1.5 * 1024 * 1024) } } })}\n`,
    );
    const err = await raw.next();
    expect(errorOf(err).message).toMatch(/too large|1 MiB|1048576/i);
    expect((await raw.call(6, 'list', {})).result).toBeDefined();
    raw.end();
  });

  test('a user error keeps its message: what went wrong and what to do', async () => {
    const raw = new Raw(home.socket);
    const reply = await raw.call(7, 'kill', { id: 99 }, 'mutation');
    expect(errorOf(reply).message).toBe('no pane 99 in workspace main; `fux list` shows the panes');
    expect(errorOf(reply).data.code).toBe('NOT_FOUND');
    raw.end();
  });

  test('200 rounds of random bytes on 20 connections leave the server up and other clients unaffected', async () => {
    const raws = Array.from({ length: 20 }, () => new Raw(home.socket));
    for (let round = 0; round < 200; round++) {
      raws[round % raws.length].send(crypto.randomBytes(1 + (round % 4096)));
    }
    for (const r of raws) r.send('\n');
    const answered = await Promise.all(raws.map((r) => r.next()));
    // Each connection was either answered with an error or closed; none got data.
    for (const a of answered) if (a) expect(a.error).toBeDefined();
    for (const r of raws) r.end();
    expect((await fux.list.query({})).workspaces[0].panes).toHaveLength(1);
  });

  test('1000 connections opened and dropped, then a normal call succeeds', async () => {
    await openAndDrop(home.socket, 1000);
    expect((await fux.list.query({})).workspaces[0].name).toBe('main');
  });

  test('a connection that closes mid-frame costs nothing', async () => {
    const raw = new Raw(home.socket);
    raw.send('{"id": 1, "method": "query", "params": {"path": "li');
    raw.end();
    expect((await fux.list.query({})).workspaces).toHaveLength(1);
  });
});
