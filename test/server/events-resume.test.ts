// A stream a script can trust (issue 14): every event but the output nudges has the next seq, a
// subscriber cut off as too slow is told the last seq it was sent, and one that resumes with
// --since gets every seq after it exactly once, or an events.gap counting exactly what it lost.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';
import { stalledSubscriber } from '../helpers/stalled-subscriber';
import type { FuxClient } from '../../src/client';
import type { StreamEvent } from '../../src/server/events';

let home: FuxHome;
let fux: FuxClient;
afterEach(() => home.close());

async function start(config = ''): Promise<void> {
  home = new FuxHome();
  const file = path.join(home.env.XDG_CONFIG_HOME, 'fux', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, config);
  await home.startServer();
  fux = await home.client();
}

/** The data messages and the final error of a raw subscription that read nothing until the server gave up on it. */
async function cutOffSubscriber(): Promise<{ events: StreamEvent[]; error: string; flood: number }> {
  const raw = await stalledSubscriber(home.socket);
  // Title changes are sequenced events, thousands a second; the flood ends by itself.
  const { id: flood } = await fux.new.mutate({
    argv: ['sh', '-c', "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); printf '\\033]0;t%d\\007' $i; done"],
  });
  const log = path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log');
  await until(() => fs.readFileSync(log, 'utf8').includes('subscriber too slow'), 60_000, 'the cut-off');
  const text = await raw.readRest();
  // Resume once the flood is over: a resumed stream too is cut off if live events outpace it.
  await until(
    async () => (await fux.list.query({})).workspaces.every((w) => !w.panes.some((p) => p.id === flood)),
    60_000,
    'the flood to end',
  );
  const events: StreamEvent[] = [];
  let error = '';
  for (const line of text.trim().split('\n')) {
    const m = JSON.parse(line) as {
      result?: { type: string; data?: StreamEvent };
      error?: { message: string };
    };
    if (m.result?.type === 'data' && m.result.data) events.push(m.result.data);
    if (m.error) error = m.error.message;
  }
  return { events, error, flood };
}

/** `fux subscribe --since SEQ` until the flood pane's pane.closed, as parsed lines. */
async function resume(since: number, flood: number): Promise<StreamEvent[]> {
  const child = home.spawnCli(['subscribe', '--since', String(since)]);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const parsed = (): StreamEvent[] =>
    out
      .split('\n')
      .filter((line) => line.endsWith('}'))
      .map((line) => JSON.parse(line) as StreamEvent);
  await until(
    () => parsed().some((e) => e.type === 'pane.closed' && e.id === flood),
    60_000,
    'the flood pane to close',
  );
  child.kill('SIGINT');
  return parsed();
}

const sequenced = (events: StreamEvent[]): number[] =>
  events.filter((e) => e.type !== 'pane.output').map((e) => e.seq);

const consecutive = (seqs: number[]): boolean => seqs.every((s, i) => i === 0 || s === seqs[i - 1]! + 1);

describe('resuming a subscription', () => {
  test('a subscriber cut off as too slow resumes with --since and sees every seq exactly once', async () => {
    await start('event_history = 100000\n');
    const first = await cutOffSubscriber();
    const last = Number(/the last seq sent was (\d+)/.exec(first.error)?.[1]);
    expect(first.error).toContain(`fux subscribe --since ${last}`);
    const before = sequenced(first.events);
    // One parse of the flood's titles can push more events than the queue holds before this
    // subscription's loop has sent one (seen in a fresh-clone run under load): then nothing was
    // sent, and `last` is the seq it started from. Either way the resume below must go on from it.
    if (before.length > 0) expect(before.at(-1)).toBe(last);
    expect(consecutive(before)).toBe(true);

    const after = await resume(last, first.flood);
    expect(after.some((e) => e.type === 'events.gap')).toBe(false);
    const rest = sequenced(after);
    expect(rest[0]).toBe(last + 1);
    expect(consecutive(rest)).toBe(true);
    // Together: one run from the first seq to pane.closed, nothing twice.
    const all = [...before, ...rest];
    expect(new Set(all).size).toBe(all.length);
    expect(consecutive(all)).toBe(true);
  }, 120_000);

  test('resuming after the history moved on starts with an events.gap that counts exactly what was lost', async () => {
    await start('event_history = 64\n');
    const first = await cutOffSubscriber();
    const last = Number(/the last seq sent was (\d+)/.exec(first.error)?.[1]);
    const after = await resume(last, first.flood);
    const [gap, ...rest] = after.filter((e) => e.type !== 'pane.output');
    if (gap?.type !== 'events.gap') throw new Error(`expected events.gap first, got ${JSON.stringify(gap)}`);
    const held = rest.map((e) => e.seq);
    // The history holds exactly its 64 newest events, the flood's pane.closed the last of them.
    expect(held).toHaveLength(64);
    expect(consecutive(held)).toBe(true);
    expect(gap).toMatchObject({ from: last + 1, to: held[0]! - 1, seq: held[0]! - 1 });
    expect(gap.lost).toBe(held[0]! - 1 - last);
    expect(gap.lost).toBeGreaterThan(0);
  }, 120_000);

  test('`fux subscribe` stalled behind its reader is cut off with the exact command that resumes it, on stderr, exit 1', async () => {
    await start('event_history = 100000\n');
    const child = home.spawnCli(['subscribe', '-w', 'main', 'pane.title']);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Titles until killed: the CLI, however late it subscribes, sees them.
    const { id: flood } = await fux.new.mutate({
      argv: ['sh', '-c', "i=0; while :; do i=$((i+1)); printf '\\033]0;t%d\\007' $i; done"],
    });
    await until(() => out.includes('"pane.title"'), 60_000, 'the first title on stdout');
    // The reader stops (as a consumer that falls behind stops `fux subscribe` writing to it).
    child.kill('SIGSTOP');
    const log = path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log');
    await until(() => fs.readFileSync(log, 'utf8').includes('subscriber too slow'), 60_000, 'the cut-off');
    child.kill('SIGCONT');
    expect(await exited).toBe(1);
    await fux.kill.mutate({ id: flood });
    const last = Number(/the last seq sent was (\d+)/.exec(err)?.[1]);
    expect(err).toContain(`resume with \`fux subscribe --since ${last} -w main pane.title\``);
    // It printed everything it was sent, up to that seq.
    const printed = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as StreamEvent);
    expect(printed.at(-1)?.seq).toBe(last);
  }, 120_000);

  test('a seq the server never reached is refused with what to do', async () => {
    await start();
    const r = home.cli(['subscribe', '--since', '999999']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/seq 999999 is ahead of this server's last \(\d+\).*subscribe without since/);
  });
});
