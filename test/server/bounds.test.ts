// Issue 32, item 3: the server bounds what it accepts and keeps, and every reply fits in a frame
// (src/protocol/limits.ts, src/server/list-page.ts, src/server/attach/session.ts).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { FuxHome, fuxBin, until } from '../helpers/home';
import { RawClient } from '../rpc/raw-client';
import { listAll, type FuxClient } from '../../src/client';
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/rpc';
import type { AttachFrame, Row } from '../../src/protocol/attach';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

/** A call's error as the typed client reports it: its code and message. */
async function refusal(call: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { message: string; data?: { code?: string } };
    return { code: e.data?.code, message: e.message };
  }
  throw new Error('the call was accepted');
}

/** A pane that runs until the test ends, with `argv` after its command (shown by `list`). */
const sleeper = (extra: string[] = []): string[] => ['/bin/sh', '-c', 'exec sleep 600', ...extra];

describe('inputs past their limits are refused, naming the field and the limit', () => {
  test.each([
    ['list', { workspace: 'w'.repeat(65) }, 'workspace: must be at most 64 characters long'],
    ['subscribe', { workspace: 'w'.repeat(65) }, 'workspace: must be at most 64 characters long'],
    ['new', { cwd: `/${'d'.repeat(4096)}` }, 'cwd: must be at most 4096 characters long'],
    [
      'new',
      { argv: ['a'.repeat(40_000), 'b'.repeat(40_000)] },
      'argv: must be at most 65536 characters in all',
    ],
    ['new', { argv: Array.from({ length: 1025 }, () => 'x') }, 'argv: must have at most 1024 items'],
    [
      'new',
      { env: { A: 'a'.repeat(100_000), B: 'b'.repeat(100_000), C: 'c'.repeat(100_000) } },
      'env: must be at most 262144 characters in all, names and values',
    ],
    ['setStatus', { segment: 's'.repeat(65), text: 'x' }, 'segment: must be at most 64 characters long'],
    ['setStatus', { segment: 's', text: 't'.repeat(1025) }, 'text: must be at most 1024 characters long'],
    ['workspace.new', { name: 'n'.repeat(65) }, 'name: must be at most 64 characters long'],
    ['answer', { id: 1, choice: 'y'.repeat(65) }, 'choice: must be at most 64 characters long'],
  ])('%s %#', async (path, input, message) => {
    const raw = await RawClient.connect(home.socket);
    const method = path === 'list' ? 'query' : path === 'subscribe' ? 'subscription' : 'mutation';
    const reply = await raw.call(1, method, path, input);
    raw.close();
    expect(reply.error?.data.code).toBe('BAD_REQUEST');
    expect(reply.error?.message.split('; ')).toContain(message);
  });

  test('a choice too long is not echoed whole in its error', async () => {
    const reply = await refusal(fux.answer.mutate({ id: 1, choice: 'y'.repeat(5000) }));
    expect(reply.message.length).toBeLessThan(300);
  });
});

describe('state has bounds', () => {
  test('a 33rd status segment is refused; the 32 kept still list and attach, and a kept one can change', async () => {
    await fux.new.mutate({ argv: sleeper(), cwd: home.dir });
    const text = 'é'.repeat(1024);
    for (let i = 1; i <= 32; i++) await fux.setStatus.mutate({ segment: `s${i}`, text });
    expect(await refusal(fux.setStatus.mutate({ segment: 's33', text }))).toEqual({
      code: 'PRECONDITION_FAILED',
      message:
        "workspace main has 32 status segments, the most it keeps; remove one first (`fux set-status NAME ''`)",
    });
    await fux.setStatus.mutate({ segment: 's1', text: 'changed' });
    const [main] = (await fux.list.query({})).workspaces;
    expect(Object.keys(main!.status)).toHaveLength(32);
    expect(main!.status.s1).toBe('changed');
    // Removing one makes room again.
    await fux.setStatus.mutate({ segment: 's2', text: '' });
    await fux.setStatus.mutate({ segment: 's33', text });
  });

  test('a server holds at most 1024 workspaces; the next is refused before anything starts', async () => {
    for (let i = 0; i < 1024; i++) await fux.workspace.new.mutate({ name: `w${i}` });
    expect(await refusal(fux.new.mutate({ workspace: 'one-more', argv: sleeper(), cwd: home.dir }))).toEqual({
      code: 'PRECONDITION_FAILED',
      message: 'the server holds 1024 workspaces, the most it keeps; `fux workspace kill NAME` one first',
    });
    expect((await fux.workspace.list.query({})).workspaces).toHaveLength(1024);
    await fux.workspace.kill.mutate({ name: 'w0' });
    await fux.workspace.new.mutate({ name: 'one-more' });
  });
});

describe('list at more panes than a frame holds', () => {
  // 20 panes with a 60 KiB command each: 1.2 MB of panes, more than one frame (1 MiB) can hold.
  const PANES = 20;
  const filler = (n: number): string => `${String(n).padStart(2, '0')}${'x'.repeat(60_000)}`;

  beforeEach(async () => {
    // A tab each: a pane's size is not the point here.
    for (let n = 0; n < PANES; n++) await fux.tab.new.mutate({ argv: sleeper([filler(n)]), cwd: home.dir });
  });

  test('answers in pages that each fit in a frame and together hold every pane once', async () => {
    const raw = await RawClient.connect(home.socket);
    const ids: number[] = [];
    let from: number | undefined;
    let pages = 0;
    do {
      const reply = await raw.call(pages, 'query', 'list', { from });
      expect(Buffer.byteLength(JSON.stringify(reply))).toBeLessThanOrEqual(DEFAULT_MAX_FRAME_BYTES);
      const page = reply.result?.data as {
        workspaces: Array<{ panes: Array<{ id: number }> }>;
        next?: number;
      };
      ids.push(...page.workspaces.flatMap((w) => w.panes.map((p) => p.id)));
      from = page.next;
      pages++;
    } while (from !== undefined);
    raw.close();
    expect(pages).toBeGreaterThan(1);
    expect(ids).toEqual(Array.from({ length: PANES }, (_, i) => i + 1));
  });

  test('`fux list` and the typed client list every pane and tab as one workspace', async () => {
    const all = await listAll(fux, {});
    expect(all.workspaces).toHaveLength(1);
    expect(all.workspaces[0]!.tabs.map((t) => t.number)).toEqual(
      Array.from({ length: PANES }, (_, i) => i + 1),
    );
    expect(all.workspaces[0]!.panes.map((p) => p.command[3])).toEqual(
      Array.from({ length: PANES }, (_, n) => filler(n)),
    );
    // More than spawnSync's default buffer (1 MiB) is printed.
    const cli = spawnSync(process.execPath, [fuxBin, 'list', '--json'], {
      env: home.env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(cli.stderr).toBe('');
    const printed = JSON.parse(cli.stdout) as { workspaces: Array<{ panes: unknown[] }> };
    expect(printed.workspaces[0]!.panes).toHaveLength(PANES);
  });
});

test('an input error is one short line in the server log: no input, no stack', async () => {
  const { log } = await fux.server.info.query({});
  const raw = await RawClient.connect(home.socket);
  await raw.call(1, 'query', `no-such-${'p'.repeat(900_000)}`, {});
  await raw.call(2, 'mutation', 'new', { argv: ['a'.repeat(500_000)] });
  await raw.call(3, 'query', 'list', { workspace: 'w'.repeat(900_000) });
  raw.close();
  const lines = await until(
    () => {
      const text = fs.readFileSync(log, 'utf8').split('\n');
      return text.some((l) => l.includes('list: BAD_REQUEST')) && text;
    },
    10_000,
    'the log lines of the three failed calls',
  );
  expect(lines.filter((l) => /^\s+at /.test(l))).toEqual([]);
  expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(2500);
  expect(lines).toContainEqual(
    expect.stringMatching(/ warn list: BAD_REQUEST workspace: must be at most 64 characters long$/),
  );
});

describe('attach when a screen is larger than a frame', () => {
  const COLS = 600;
  const ROWS = 200;
  /** Each cell its own colour (1000 of them, cycling): 120 000 runs, about 1.3 MB of rows. */
  const PAINT = `
    const out = [];
    for (let y = 0; y < ${ROWS}; y++) {
      let row = '';
      for (let x = 0; x < ${COLS}; x++) {
        const c = (y * ${COLS} + x) % 1000;
        row += '\\x1b[38;2;' + (c % 10) * 25 + ';' + (Math.floor(c / 10) % 10) * 25 + ';' + Math.floor(c / 100) * 25 + 'm' + String.fromCharCode(97 + (x % 26));
      }
      out.push(row);
    }
    process.stdout.write('\\x1b[H' + out.join('\\r\\n') + '\\x1b[0m\\x1b[H');
    setInterval(() => {}, 1000);
  `;

  test('sends the first screen in several frames, each within a frame, and the client sees all of it', async () => {
    await fux.workspace.new.mutate({ name: 'big', cols: COLS, rows: ROWS });
    const { id } = await fux.new.mutate({
      workspace: 'big',
      argv: [process.execPath, '-e', PAINT],
      cwd: home.dir,
    });
    // The last row is drawn: the whole screen has been parsed.
    await until(
      async () => {
        const { text } = await fux.capture.query({ workspace: 'big', id });
        return text.split('\n')[ROWS - 1]?.length === COLS;
      },
      20_000,
      'the painted screen',
    );
    const frames: AttachFrame[] = [];
    const rows = new Map<number, Row>();
    let failure: unknown;
    const sub = fux.attach.session.subscribe(
      { workspace: 'big', cols: COLS, rows: ROWS },
      {
        onData: (frame) => {
          frames.push(frame);
          for (const [y, row] of Object.entries(frame.panes?.[String(id)]?.lines ?? {}))
            rows.set(Number(y), row);
        },
        onError: (err) => (failure = err),
      },
    );
    try {
      await until(() => failure !== undefined || rows.size === ROWS, 20_000, `all ${ROWS} rows`);
      expect(failure).toBeUndefined();
      const withRows = frames.filter((f) => f.panes?.[String(id)]?.lines !== undefined);
      expect(withRows.length).toBeGreaterThan(1);
      for (const f of frames)
        expect(Buffer.byteLength(JSON.stringify(f))).toBeLessThan(DEFAULT_MAX_FRAME_BYTES);
      const text = (y: number): string =>
        rows
          .get(y)!
          .map((run) => run[1])
          .join('');
      expect(text(0)).toBe(
        Array.from({ length: COLS }, (_, x) => String.fromCharCode(97 + (x % 26))).join(''),
      );
      expect(text(ROWS - 1)).toBe(text(0));
    } finally {
      sub.unsubscribe();
    }
  });
});
