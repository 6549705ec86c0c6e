import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';
import { collectEvents as collect } from '../helpers/collect-events';
import { stalledSubscriber } from '../helpers/stalled-subscriber';
import type { FuxClient } from '../../src/client';
import type { FuxEvent } from '../../src/server/events';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

describe('events', () => {
  test('pane.opened, pane.focused, pane.title, pane.output and pane.closed with its exit status', async () => {
    const s = collect(fux, {});
    await s.ready;
    const { id } = await fux.new.mutate({
      argv: ['sh', '-c', "printf '\\033]0;my title\\007'; echo out; read x; exit 3"],
    });
    await until(() => s.events.some((e) => e.type === 'pane.title'), 10_000, 'pane.title');
    await fux.sendKeys.mutate({ id, keys: ['Enter'] });
    const closed = await until(() => s.events.find((e) => e.type === 'pane.closed'), 10_000, 'pane.closed');
    const types = s.events.map((e) => e.type);
    expect(types[0]).toBe('pane.opened');
    expect(types).toEqual(
      expect.arrayContaining(['pane.focused', 'pane.title', 'pane.output', 'pane.closed']),
    );
    expect(s.events.find((e) => e.type === 'pane.opened')).toMatchObject({
      workspace: 'main',
      id,
      command: ['sh', '-c', expect.any(String)],
    });
    expect(s.events.find((e) => e.type === 'pane.title')).toMatchObject({ id, title: 'my title' });
    expect(closed).toMatchObject({ id, exit: { code: 3, signal: null } });
    for (const e of s.events) expect(typeof e.ts).toBe('number');
    s.stop();
  });

  test('a filter by type and workspace delivers only those events', async () => {
    const s = collect(fux, { events: ['pane.closed'], workspace: 'b' });
    await s.ready;
    await fux.new.mutate({ workspace: 'a', argv: ['true'] });
    await fux.new.mutate({ workspace: 'b', argv: ['true'] });
    await until(() => s.events.length >= 1, 10_000, 'the pane.closed of b');
    await until(
      async () => (await fux.workspace.list.query({})).workspaces.length === 0,
      10_000,
      'both to close',
    );
    expect(s.events.map((e) => [e.type, e.workspace])).toEqual([['pane.closed', 'b']]);
    s.stop();
  });

  test('pane.output is rate-capped: a pane printing for a second yields a handful of nudges, not thousands', async () => {
    const s = collect(fux, { events: ['pane.output', 'pane.closed'] });
    await s.ready;
    await fux.new.mutate({
      argv: ['sh', '-c', 'i=0; while [ $i -lt 100 ]; do echo line $i; sleep 0.01; i=$((i+1)); done'],
    });
    await until(() => s.events.some((e) => e.type === 'pane.closed'), 20_000, 'the pane to finish');
    const nudges = s.events.filter((e) => e.type === 'pane.output');
    expect(nudges.length).toBeGreaterThanOrEqual(1);
    // 100 prints over ≥ 1 s; the cap of one per 250 ms allows a few, never one per print.
    expect(nudges.length).toBeLessThan(30);
    for (let i = 1; i < nudges.length; i++)
      expect(nudges[i].ts - nudges[i - 1].ts).toBeGreaterThanOrEqual(245);
    s.stop();
  });

  test('a capture asked for the moment a pane.output nudge arrives shows the output it announced', async () => {
    // An echo's nudge leaves before its parse (pane.ts), which is only right because the parse
    // ends in the same turn: any request it prompts is served after.
    const { id } = await fux.new.mutate({ argv: ['cat'] });
    const screens: string[] = [];
    let typed = '';
    const s = collect(fux, { events: ['pane.output'] }, (e) => {
      if (e.type !== 'pane.output' || e.id !== id) return;
      const expected = typed;
      void fux.capture.query({ id }).then(({ text }) => screens.push(text.includes(expected) ? 'ok' : text));
    });
    await s.ready;
    for (let i = 0; i < 5; i++) {
      typed += `k${i}`;
      const seen = screens.length;
      await fux.sendKeys.mutate({ id, keys: [`k${i}`], literal: true });
      await until(() => screens.length > seen, 10_000, `the capture after key ${i}`);
      // Past the nudge's 250 ms cap, so the next key's nudge is sent at once again.
      await new Promise((r) => setTimeout(r, 300));
    }
    s.stop();
    expect(screens.filter((screen) => screen !== 'ok')).toEqual([]);
    expect(screens.length).toBeGreaterThanOrEqual(5);
  });

  test('workspace.resized is sent when a workspace changes size', async () => {
    await fux.new.mutate({ argv: ['sleep', '30'] });
    const s = collect(fux, { events: ['workspace.resized'] });
    await s.ready;
    await fux.workspace.resize.mutate({ cols: 132, rows: 43 });
    await until(() => s.events.length === 1, 10_000, 'workspace.resized');
    expect(s.events[0]).toMatchObject({ workspace: 'main', cols: 132, rows: 43 });
    s.stop();
  });

  test('fux subscribe prints one JSON object per line as events happen', async () => {
    const child = home.spawnCli(['subscribe', 'pane.opened', 'pane.closed']);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    // The subscription is live once the server counts it; open panes after that.
    await until(
      async () => {
        await fux.new.mutate({ argv: ['true'] });
        return out.includes('pane.closed');
      },
      10_000,
      'events on stdout',
    );
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as FuxEvent);
    expect(lines.every((e) => e.type === 'pane.opened' || e.type === 'pane.closed')).toBe(true);
    child.kill('SIGINT');
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  });

  test('a subscriber that stops reading while a pane floods titles is dropped with a reason; memory stays bounded', async () => {
    const raw = await stalledSubscriber(home.socket);
    const rssBefore = serverRss(home);
    // Title changes are real events (unlike output nudges they are never dropped), thousands a second.
    const flood = await fux.new.mutate({
      argv: ['sh', '-c', "i=0; while :; do i=$((i+1)); printf '\\033]0;t%d\\007' $i; done"],
    });
    const log = path.join(home.env.XDG_STATE_HOME, 'fux', 'server.log');
    await until(
      () => fs.readFileSync(log, 'utf8').includes('subscriber too slow'),
      60_000,
      'the drop in the log',
    );
    // When the reader reads again, however late, the stream ends with the reason.
    const text = await raw.readRest();
    const rssAfter = serverRss(home);
    await fux.kill.mutate({ id: flood.id });
    expect(text.trim().split('\n').pop()).toMatch(/subscriber too slow/);
    expect(rssAfter - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect((await fux.list.query({})).workspaces).toEqual([]);
  }, 90_000);
});

function serverRss(h: FuxHome): number {
  const status = fs.readFileSync(`/proc/${h.serverPid()}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}
