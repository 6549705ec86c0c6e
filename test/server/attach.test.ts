import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { collectEvents } from '../helpers/collect-events';
import { FuxHome, until } from '../helpers/home';
import type { FuxClient } from '../../src/client';
import type { AttachFrame, Row } from '../../src/protocol/attach';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

/** A client's mirror of what frames told it, enough to read rows back as text. */
class Mirror {
  frames: AttachFrame[] = [];
  client = '';
  view: AttachFrame['view'];
  rows = new Map<number, Map<number, Row>>();
  styles = new Map<string, string>();
  error: Error | undefined;
  ended = false;
  end: AttachFrame['end'];

  apply(f: AttachFrame): void {
    this.frames.push(f);
    if (f.client) this.client = f.client;
    if (f.reset) this.rows.clear();
    if (f.view) this.view = f.view;
    for (const [id, s] of Object.entries(f.styles ?? {})) this.styles.set(id, s);
    for (const [id, u] of Object.entries(f.panes ?? {})) {
      const pane = Number(id);
      if (u.rows !== undefined) this.rows.set(pane, new Map());
      const rows = this.rows.get(pane) ?? new Map<number, Row>();
      this.rows.set(pane, rows);
      for (const [y, row] of Object.entries(u.lines ?? {})) rows.set(Number(y), row);
    }
    if (f.end !== undefined) {
      this.ended = true;
      this.end = f.end;
    }
  }

  /** Whether a row of the pane reads exactly `line` (not a typed command that contains it). */
  hasLine(pane: number, line: string): boolean {
    return this.text(pane).split('\n').includes(line);
  }

  text(pane: number): string {
    const rows = this.rows.get(pane) ?? new Map<number, Row>();
    const max = Math.max(-1, ...rows.keys());
    const out: string[] = [];
    for (let y = 0; y <= max; y++) out.push((rows.get(y) ?? []).map((run) => run[1]).join(''));
    return out.join('\n');
  }
}

function attach(client: FuxClient, input: { workspace?: string; cols: number; rows: number }) {
  const m = new Mirror();
  const sub = client.attach.session.subscribe(
    { ...input, cwd: home.dir, env: { PATH: process.env.PATH ?? '', HOME: home.dir, SHELL: '/bin/sh' } },
    { onData: (f) => m.apply(f), onError: (e) => (m.error = e), onComplete: () => (m.ended = true) },
  );
  return { m, stop: () => sub.unsubscribe() };
}

describe('attach protocol', () => {
  test('attaching creates the workspace with one pane and sends the whole state first', async () => {
    const { m, stop } = attach(fux, { workspace: 'w1', cols: 100, rows: 30 });
    await until(() => m.view?.panes.length === 1, 10_000, 'first view');
    const first = m.frames[0]!;
    expect(first.reset).toBe(true);
    expect(first.client).toMatch(/^[0-9a-f]{12}$/);
    expect(m.view).toMatchObject({
      workspace: 'w1',
      cols: 100,
      rows: 30,
      zoomed: false,
      popup: null,
      clients: 1,
    });
    expect(m.view!.panes[0]).toMatchObject({ x: 0, y: 0, cols: 100, rows: 30, focused: true });
    expect(m.view!.keys.prefix).toBe('C-a');
    const list = await fux.list.query({ workspace: 'w1' });
    expect(list.workspaces[0]).toMatchObject({ cols: 100, rows: 30 });
    stop();
  });

  test('typed input reaches the focused pane and its echo comes back as a row diff', async () => {
    const { m, stop } = attach(fux, { workspace: 'w2', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    await fux.attach.input.mutate({ client: m.client, pane, data: 'echo attach-$((6*7))\r' });
    await until(() => m.text(pane).includes('attach-42'), 10_000, 'echo in the mirror');
    // Later frames carry only rows that changed, not the whole screen.
    const last = m.frames[m.frames.length - 1]!;
    expect(Object.keys(last.panes?.[String(pane)]?.lines ?? {}).length).toBeLessThan(24);
    stop();
  });

  test('keys sent as notifications reach the pane in order, unanswered, and the echo comes back', async () => {
    const { m, stop } = attach(fux, { workspace: 'w-notify', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    // By hand, as a script would: a mutation without an id.
    const raw = net.createConnection(home.socket);
    await new Promise((r) => raw.once('connect', r));
    let replies = '';
    raw.on('data', (chunk: Buffer) => (replies += chunk.toString('utf8')));
    const notify = (input: object): boolean =>
      raw.write(JSON.stringify({ method: 'mutation', params: { path: 'attach.input', input } }) + '\n');
    for (const data of ['echo no', 'tify-', '$((6*7))\r']) notify({ client: m.client, data });
    await until(() => m.hasLine(pane, 'notify-42'), 10_000, 'the echo of the notified keys');
    // A bad notification is not answered either, and the connection goes on.
    notify({ client: m.client, data: 7 });
    notify({ client: m.client, data: 'echo after-$((2+3))\r' });
    await until(() => m.hasLine(pane, 'after-5'), 10_000, 'keys after a bad notification');
    expect(replies).toBe('');
    raw.destroy();
    stop();
  });

  test('a session whose workspace closes ends with the reason workspace-closed', async () => {
    const { m, stop } = attach(fux, { workspace: 'w-end', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    await fux.kill.mutate({ workspace: 'w-end', id: m.view!.panes[0]!.id });
    await until(() => m.ended, 10_000, 'the end frame');
    expect(m.end).toEqual({ reason: 'workspace-closed', message: 'workspace w-end closed' });
    stop();
  });

  test('actions split, move focus and zoom, and the view follows', async () => {
    const { m, stop } = attach(fux, { workspace: 'w3', cols: 81, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'split', input: { direction: 'v' } },
    });
    await until(() => m.view?.panes.length === 2, 10_000, 'two panes');
    const [left, right] = m.view!.panes;
    expect(left).toMatchObject({ x: 0, cols: 40, focused: false });
    expect(right).toMatchObject({ x: 41, cols: 40, focused: true });
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'focus', input: { target: 'left' } },
    });
    await until(() => m.view?.panes.find((p) => p.focused)?.id === left!.id, 10_000, 'focus left');
    await fux.attach.action.mutate({ client: m.client, action: { kind: 'call', call: 'zoom', input: {} } });
    await until(() => m.view?.zoomed === true, 10_000, 'zoomed');
    expect(m.view!.panes).toEqual([expect.objectContaining({ id: left!.id, cols: 81, rows: 24 })]);
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'tab.new', input: {} },
    });
    await until(() => m.view?.tabs.length === 2, 10_000, 'two tabs');
    expect(m.view!.tabs.map((t) => t.active)).toEqual([false, true]);
    stop();
  });

  test("a key's call acts in the client's context, and only the attach-safe procedures can be called", async () => {
    const { m, stop } = attach(fux, { workspace: 'w-call', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const first = m.view!.panes[0]!.id;
    // No workspace and no pane named: the client's workspace and its focused pane.
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'setStatus', input: { segment: 'k', text: 'from a key' } },
    });
    await until(() => m.view?.status.some((s) => s.text === 'from a key'), 10_000, 'status set');
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'split', input: { direction: 'h' } },
    });
    await until(() => m.view?.panes.length === 2, 10_000, 'two panes');
    await fux.attach.action.mutate({ client: m.client, action: { kind: 'call', call: 'kill', input: {} } });
    await until(() => m.view?.panes.length === 1, 10_000, 'the focused pane killed');
    expect(m.view!.panes[0]!.id).toBe(first);
    // A bad input is the procedure's own error; a procedure outside the list is refused.
    await expect(
      fux.attach.action.mutate({
        client: m.client,
        action: { kind: 'call', call: 'split', input: { direction: 'x' } },
      }),
    ).rejects.toThrow(/direction/);
    await expect(
      fux.attach.action.mutate({
        client: m.client,
        action: { kind: 'call', call: 'server.kill' as 'kill', input: {} },
      }),
    ).rejects.toThrow(/call/);
    expect((await fux.server.info.query({})).pid).toBeGreaterThan(0);
    stop();
  });

  test('colours and attributes arrive as styles the rows refer to', async () => {
    const { m, stop } = attach(fux, { workspace: 'w4', cols: 80, rows: 10 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    await fux.attach.input.mutate({
      client: m.client,
      pane,
      data: "clear; printf '\\033[1;38;2;255;100;0mTC\\033[0m \\033[3;4mIU\\033[0m 你好\\n'\r",
    });
    await until(() => m.text(pane).includes('TC IU'), 10_000, 'styled row');
    const row = [...m.rows.get(pane)!.values()].find((r) => r.some((run) => run[1] === 'TC'))!;
    const tc = row.find((run) => run[1] === 'TC')!;
    expect(m.styles.get(String(tc[0]))).toBe('1;38;2;255;100;0');
    const iu = row.find((run) => run[1] === 'IU')!;
    expect(m.styles.get(String(iu[0]))).toBe('3;4');
    expect(row.filter((run) => run.length === 3).map((run) => [run[1], run[2]])).toEqual([
      ['你', 2],
      ['好', 2],
    ]);
    stop();
  });

  test('several clients: the last resize wins, and attach and detach are events', async () => {
    const { events, ready } = collectEvents(fux);
    await ready;
    const a = attach(fux, { workspace: 'w5', cols: 100, rows: 30 });
    await until(() => a.m.client !== '', 10_000, 'a attached');
    const other = await home.client();
    const b = attach(other, { workspace: 'w5', cols: 60, rows: 20 });
    await until(() => b.m.client !== '' && a.m.view?.clients === 2, 10_000, 'b attached');
    expect(a.m.view).toMatchObject({ cols: 60, rows: 20 });
    await fux.attach.resize.mutate({ client: a.m.client, cols: 90, rows: 25 });
    await until(() => b.m.view?.cols === 90 && b.m.view.rows === 25, 10_000, 'b sees a resize');
    b.stop();
    await until(
      () => events.some((e) => e.type === 'client.detached' && e.client === b.m.client),
      10_000,
      'detached',
    );
    const attached = events.filter((e) => e.type === 'client.attached');
    expect(attached.map((e) => e.type === 'client.attached' && [e.cols, e.rows, e.remote])).toEqual([
      [100, 30, null],
      [60, 20, null],
    ]);
    await until(() => a.m.view?.clients === 1, 10_000, 'a sees one client');
    a.stop();
  });

  test('when the client sized last detaches, the size follows the client sized last among those left', async () => {
    const a = attach(fux, { workspace: 'w6', cols: 120, rows: 40 });
    await until(() => a.m.client !== '', 10_000, 'a attached');
    const b = attach(await home.client(), { workspace: 'w6', cols: 100, rows: 30 });
    await until(() => a.m.view?.clients === 2 && a.m.view.cols === 100, 10_000, 'b sizes the workspace');
    const c = attach(await home.client(), { workspace: 'w6', cols: 90, rows: 20 });
    await until(() => a.m.view?.clients === 3 && a.m.view.cols === 90, 10_000, 'c sizes the workspace');
    await fux.attach.resize.mutate({ client: b.m.client, cols: 110, rows: 35 });
    await until(() => a.m.view?.cols === 110, 10_000, 'b resized');
    b.stop();
    // c attached after a, so c is the one sized last among those left.
    await until(() => a.m.view?.clients === 2, 10_000, 'b gone');
    await until(() => a.m.view?.cols === 90 && a.m.view.rows === 20, 10_000, "c's size");
    c.stop();
    await until(() => a.m.view?.cols === 120 && a.m.view.rows === 40, 10_000, "a's own size again");
    const { workspaces } = await fux.list.query({ workspace: 'w6' });
    expect(workspaces.find((w) => w.name === 'w6')).toMatchObject({ cols: 120, rows: 40 });
    a.stop();
  });

  test('a popup shows over the workspace, takes input, and its exit status is the reply', async () => {
    const { m, stop } = attach(fux, { workspace: 'w6', cols: 80, rows: 24 });
    await until(() => m.client !== '', 10_000, 'attached');
    const reply = fux.popup.mutate({
      workspace: 'w6',
      argv: ['sh', '-c', 'echo in-popup; read x; exit 5'],
      cols: 40,
      rows: 10,
    });
    await until(() => m.view?.popup != null, 10_000, 'popup in view');
    expect(m.view!.popup).toMatchObject({ x: 20, y: 7, cols: 40, rows: 10 });
    const id = m.view!.popup!.id;
    await until(() => m.text(id).includes('in-popup'), 10_000, 'popup rows');
    await fux.attach.input.mutate({ client: m.client, pane: id, data: '\r' });
    await expect(reply).resolves.toEqual({ id, exit: { code: 5, signal: null } });
    await until(() => m.view?.popup === null, 10_000, 'popup gone');
    stop();
  });

  test('a popup is a pane: `kill` closes it at once, a second is refused, and a key can call `popup`', async () => {
    const { m, stop } = attach(fux, { workspace: 'w6k', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const reply = fux.popup.mutate({ workspace: 'w6k', argv: ['sleep', '60'] });
    await until(() => m.view?.popup != null, 10_000, 'popup in view');
    const id = m.view!.popup!.id;
    await expect(fux.popup.mutate({ workspace: 'w6k', argv: ['true'] })).rejects.toThrow(
      new RegExp(`already shows a popup \\(pane ${id}\\)`),
    );
    await fux.kill.mutate({ workspace: 'w6k', id });
    await until(() => m.view?.popup === null, 10_000, 'popup gone');
    // SIGHUP, as a closed terminal.
    await expect(reply).resolves.toEqual({ id, exit: { code: null, signal: 1 } });
    await fux.attach.action.mutate({
      client: m.client,
      action: { kind: 'call', call: 'popup', input: { argv: ['sh', '-c', 'echo key-popup; sleep 60'] } },
    });
    await until(() => m.view?.popup != null, 10_000, 'popup from a key');
    await until(() => m.text(m.view!.popup!.id).includes('key-popup'), 10_000, 'its rows');
    await fux.kill.mutate({ workspace: 'w6k', id: m.view!.popup!.id });
    await until(() => m.view?.popup === null, 10_000, 'popup from a key gone');
    stop();
  });

  test('a key bound to a command in a popup opens it with the pane context, through the popup call', async () => {
    fs.mkdirSync(path.join(home.dir, 'config', 'fux'), { recursive: true });
    fs.writeFileSync(
      path.join(home.dir, 'config', 'fux', 'config.toml'),
      '[bindings]\n"g" = { command = "echo from-$FUX_PANE-in-$FUX_CWD; sleep 60", popup = true }\n',
    );
    const { m, stop } = attach(fux, { workspace: 'w6b', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    // The server reloads the file on change: the key is bound once the view carries it.
    await until(() => m.view?.keys.bindings.g !== undefined, 10_000, 'the binding in the view');
    await fux.attach.action.mutate({ client: m.client, action: { kind: 'binding', key: 'g' } });
    await until(() => m.view?.popup != null, 10_000, 'the popup');
    const popup = m.view!.popup!.id;
    await until(() => m.text(popup).includes(`from-${m.view!.panes[0]!.id}-in-/`), 10_000, 'its output');
    await expect(
      fux.attach.action.mutate({ client: m.client, action: { kind: 'binding', key: 'g' } }),
    ).rejects.toThrow(/already shows a popup/);
    await fux.kill.mutate({ workspace: 'w6b', id: popup });
    stop();
  });

  test('history returns rows above the screen for copy mode', async () => {
    const { m, stop } = attach(fux, { workspace: 'w7', cols: 80, rows: 10 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    // Typed before the shell's prompt, the line would be echoed by the tty first and the prompt
    // printed in front of seq's `1`.
    await until(() => m.text(pane).trim() !== '', 10_000, 'the shell prompt');
    await fux.attach.input.mutate({ client: m.client, pane, data: 'seq 1 50\r' });
    await until(() => m.hasLine(pane, '50'), 10_000, 'seq done');
    const h = await fux.attach.history.query({ client: m.client, pane, lines: 100 });
    const text = h.lines.map((r) => r.map((run) => run[1]).join(''));
    expect(text).toContain('1');
    expect(text).toContain('50');
    expect(h.screenTop).toBe(h.lines.length - 10);
    stop();
  });

  test('a flooding pane yields at most about 60 frames a second, each the current state', async () => {
    const { m, stop } = attach(fux, { workspace: 'w8', cols: 120, rows: 40 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    await fux.attach.input.mutate({ client: m.client, pane, data: 'seq 1 400000; echo flood-done\r' });
    const start = performance.now();
    const before = m.frames.length;
    await until(() => m.hasLine(pane, 'flood-done'), 60_000, 'flood done');
    const elapsed = performance.now() - start;
    const frames = m.frames.length - before;
    // Frames are spaced by at least 1/60 s by construction; allow one for the edges.
    expect(frames).toBeLessThanOrEqual(Math.ceil((elapsed / 1000) * 60) + 2);
    stop();
  });

  test('a client that vanishes mid-stream leaves the server and its panes unaffected', async () => {
    const { m, stop } = attach(fux, { workspace: 'w9', cols: 80, rows: 24 });
    await until(() => m.client !== '' && m.view?.panes.length === 1, 10_000, 'attached');
    const pane = m.view!.panes[0]!.id;
    await fux.attach.input.mutate({
      client: m.client,
      pane,
      data: 'yes | head -c 3000000 | tr y z; echo alive\r',
    });
    // A raw client subscribes, never reads, and is destroyed.
    const raw = net.createConnection(home.socket);
    await new Promise((r) => raw.once('connect', r));
    raw.write(
      JSON.stringify({
        id: 1,
        method: 'subscription',
        params: { path: 'attach.session', input: { workspace: 'w9', cols: 80, rows: 24 } },
      }) + '\n',
    );
    raw.pause();
    await until(() => m.view?.clients === 2, 10_000, 'raw client attached');
    raw.destroy();
    await until(() => m.view?.clients === 1, 10_000, 'raw client gone');
    await until(() => m.hasLine(pane, 'alive'), 60_000, 'pane still running');
    const list = await fux.list.query({ workspace: 'w9' });
    expect(list.workspaces[0]!.panes).toHaveLength(1);
    stop();
  });
});
