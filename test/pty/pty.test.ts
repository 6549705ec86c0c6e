import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Pty, type PtyExit } from '../../src/pty/pty';

/**
 * A child that puts its terminal in raw mode (every byte passes untouched, nothing echoes), says
 * `ready`, waits until the gate file exists (not reading, so the pty fills up), then copies
 * exactly `bytes` bytes of its input to `out` and exits.
 */
interface Receiver {
  readonly pty: Pty;
  readonly out: string;
  readonly gate: string;
  readonly exit: Promise<PtyExit>;
  readonly ready: Promise<void>;
}

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-pty-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function receiver(bytes: number, gated: boolean): Receiver {
  const out = path.join(dir, 'out');
  const gate = path.join(dir, 'gate');
  if (!gated) fs.writeFileSync(gate, '');
  // SIGHUP ignored (and so for head after exec): on this kernel a child that has read its input
  // was now and then reported dead of SIGHUP just before exiting, with bare node-pty too.
  const script =
    "trap '' HUP; stty raw -echo -iexten; echo ready; " +
    `while [ ! -e '${gate}' ]; do sleep 0.01; done; ` +
    `exec head -c ${bytes} > '${out}'`;
  let seen = '';
  let ready: () => void = () => {};
  let exited: (exit: PtyExit) => void = () => {};
  const pty = Pty.spawn(
    { file: '/bin/sh', args: ['-c', script], cwd: dir, env: { ...process.env }, cols: 80, rows: 24 },
    {
      bytes: (chunk) => {
        seen += chunk.toString('latin1');
        if (seen.includes('ready')) ready();
      },
      childGone: () => pty.resume(),
      closed: (exit) => exited(exit),
    },
  );
  return {
    pty,
    out,
    gate,
    exit: new Promise((resolve) => (exited = resolve)),
    ready: new Promise((resolve) => (ready = resolve)),
  };
}

/** Bytes 0–255 in a sequence that does not repeat with any short period, so a reordering shows. */
function pattern(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

async function received(child: Receiver): Promise<Buffer> {
  const exit = await child.exit;
  expect(exit).toEqual({ code: 0, signal: null });
  return fs.readFileSync(child.out);
}

describe('the shared pty', () => {
  test('writes straight to the master with node-pty 1.1.0 (the queue is only a fallback)', async () => {
    const child = receiver(1, false);
    expect(child.pty.synchronousWrites).toBe(true);
    await child.ready;
    child.pty.write('x');
    expect((await received(child)).toString()).toBe('x');
  });

  test('delivers every byte value intact, written as a string and as bytes', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const text = 'héllo ✓ 😀';
    const child = receiver(all.length + Buffer.byteLength(text), false);
    await child.ready;
    child.pty.write(all);
    child.pty.write(text);
    expect(await received(child)).toEqual(Buffer.concat([all, Buffer.from(text)]));
  });

  test('keeps order when small writes follow a big one the kernel could not take at once', async () => {
    // 1 MiB is far more than a pty buffers (20 KiB measured here), so most of it waits in node-pty's
    // queue while the child is not reading; the small writes after it must queue behind it.
    const big = pattern(1024 * 1024, 1);
    const smalls = Array.from({ length: 200 }, (_, i) => pattern(1 + (i % 7), i + 2));
    const expected = Buffer.concat([big, ...smalls]);
    const child = receiver(expected.length, true);
    await child.ready;
    child.pty.write(big);
    for (const small of smalls) child.pty.write(small);
    fs.writeFileSync(child.gate, '');
    expect((await received(child)).equals(expected)).toBe(true);
  });

  test('falls back to the queue when the pty is full (EAGAIN) and loses nothing once the child reads', async () => {
    // 48 KB in one- to seven-byte writes into a pty nobody reads (it takes about 20 KiB): the first go straight to the kernel until
    // its buffer is full, the next meets EAGAIN and goes to node-pty's queue, and the rest queue
    // behind it.
    const chunks = Array.from({ length: 12_000 }, (_, i) => pattern(1 + (i % 7), i));
    const expected = Buffer.concat(chunks);
    const child = receiver(expected.length, true);
    await child.ready;
    for (const chunk of chunks) child.pty.write(chunk);
    fs.writeFileSync(child.gate, '');
    expect((await received(child)).equals(expected)).toBe(true);
  });
});
