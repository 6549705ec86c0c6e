// A popup is a pane with a placement (DESIGN.md §5 `popup`): the same start, detection, events
// and end as a tiled pane, against a real server and real ptys.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { collectEvents } from '../helpers/collect-events';
import { FuxHome, until } from '../helpers/home';
import type { FuxClient } from '../../src/client';
import type { EventOf, FuxEvent } from '../../src/server/events';
import { fakeClaude } from './agent-screens';

let home: FuxHome;
let fux: FuxClient;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
  fux = await home.client();
});
afterEach(() => home.close());

function find<T extends FuxEvent['type']>(
  events: FuxEvent[],
  type: T,
  match: (e: EventOf<T>) => boolean,
): EventOf<T> | undefined {
  return events.find((e): e is EventOf<T> => e.type === type && match(e as EventOf<T>));
}

describe('a popup is a pane', () => {
  test("its agent is detected and every pane event is published, in no tab; the focus stays on the tile; its exit is the reply's", async () => {
    const tile = await fux.new.mutate({ argv: ['sleep', '60'] });
    // Room for the 80x24 the fake agent's screens were captured at, inside the popup's border.
    await fux.workspace.resize.mutate({ cols: 82, rows: 26 });
    const s = collectEvents(fux);
    await s.ready;
    const claude = fakeClaude(home.dir);
    const reply = fux.popup.mutate({ argv: claude.argv, env: claude.env, cwd: home.dir, cols: 80, rows: 24 });

    const opened = await until(() => find(s.events, 'pane.opened', () => true), 10_000, 'pane.opened');
    expect(opened).toMatchObject({ workspace: 'main', tab: null, command: claude.argv });
    const id = opened.id;
    expect(id).toBe(tile.id + 1);

    await fux.sendKeys.mutate({ id, keys: ['working', 'Enter'] });
    await until(
      () => find(s.events, 'agent.state', (e) => e.id === id && e.state === 'working'),
      10_000,
      'working',
    );
    await fux.sendKeys.mutate({ id, keys: ['blocked', 'Enter'] });
    const blocked = await until(
      () => find(s.events, 'agent.state', (e) => e.id === id && e.state === 'blocked'),
      10_000,
      'blocked',
    );
    expect(blocked).toMatchObject({ agent: 'claude', previous: 'working' });
    // The pane verbs reach it as any pane: its prompt, a wait on its state, its screen.
    expect((await fux.prompt.query({ id })).options.length).toBeGreaterThan(0);
    const { panes } = await new Promise<{ panes: Array<{ id: number; state: string }> }>((resolve, reject) =>
      fux.wait.subscribe({ ids: [id], state: 'blocked', now: true }, { onData: resolve, onError: reject }),
    );
    expect(panes).toEqual([expect.objectContaining({ id, state: 'blocked' })]);
    expect((await fux.capture.query({ id })).cols).toBe(80);
    expect(find(s.events, 'pane.title', (e) => e.id === id)).toBeDefined();
    expect(find(s.events, 'pane.output', (e) => e.id === id)).toBeDefined();

    // `list` shows the tiles (a picker run in a popup lists the panes, not itself); the tile keeps the focus.
    const listed = (await fux.list.query({})).workspaces[0]!;
    expect(listed.panes.map((p) => [p.id, p.active])).toEqual([[tile.id, true]]);

    // End of input ends the fake agent: the popup's exit is published and is the reply.
    await fux.sendKeys.mutate({ id, keys: ['C-d'] });
    expect(await reply).toEqual({ id, exit: { code: 0, signal: null } });
    const closed = await until(
      () => find(s.events, 'pane.closed', (e) => e.id === id),
      10_000,
      'pane.closed',
    );
    expect(closed.exit).toEqual({ code: 0, signal: null });
    expect(s.events.some((e) => e.type === 'pane.focused')).toBe(false);
    s.stop();
  });

  test('it is in no tab: a split beside it, or focus on it, is refused by name; `kill` ends it as any pane', async () => {
    await fux.new.mutate({ workspace: 'w', argv: ['sleep', '60'] });
    const s = collectEvents(fux);
    await s.ready;
    const reply = fux.popup.mutate({ workspace: 'w', argv: ['sleep', '60'] });
    const { id } = await until(() => find(s.events, 'pane.opened', () => true), 10_000, 'the popup');
    const refusal = /pane \d+ is the popup of workspace w, in no tab/;
    await expect(
      fux.split.mutate({ workspace: 'w', direction: 'v', target: id, argv: ['true'] }),
    ).rejects.toThrow(refusal);
    await expect(fux.focus.mutate({ workspace: 'w', target: id })).rejects.toThrow(refusal);
    await fux.kill.mutate({ workspace: 'w', id });
    expect(await reply).toEqual({ id, exit: { code: null, signal: 1 } });
    s.stop();
  });

  test('it goes with its workspace: the last tile closing hangs it up', async () => {
    const tile = await fux.new.mutate({ workspace: 'g', argv: ['sleep', '60'] });
    const s = collectEvents(fux);
    await s.ready;
    const reply = fux.popup.mutate({ workspace: 'g', argv: ['sleep', '60'] });
    const opened = await until(() => find(s.events, 'pane.opened', () => true), 10_000, 'the popup');
    await fux.kill.mutate({ workspace: 'g', id: tile.id });
    expect(await reply).toEqual({ id: opened.id, exit: { code: null, signal: 1 } });
    expect((await fux.workspace.list.query({})).workspaces).toEqual([]);
    s.stop();
  });

  test('the journal keeps the tiles, not the popup (its caller waits on it, and is gone after a restart)', async () => {
    const tile = await fux.new.mutate({ workspace: 'j', argv: ['sleep', '60'] });
    const s = collectEvents(fux);
    await s.ready;
    void fux.popup.mutate({ workspace: 'j', argv: ['sleep', '60'] }).catch(() => undefined);
    const popup = await until(() => find(s.events, 'pane.opened', () => true), 10_000, 'the popup');
    // A change after the popup opened: the journal written for it was written with the popup showing.
    await fux.setStatus.mutate({ workspace: 'j', segment: 'mark', text: 'after-popup' });
    const journalFile = path.join(home.env.XDG_STATE_HOME, 'fux', 'journal.json');
    const text = await until(
      () =>
        (fs.existsSync(journalFile) ? fs.readFileSync(journalFile, 'utf8') : '').includes('after-popup') &&
        fs.readFileSync(journalFile, 'utf8'),
      15_000,
      'the journal',
    );
    const saved = (
      JSON.parse(text) as { workspaces: Array<{ panes: Array<{ id: number }>; next: { pane: number } }> }
    ).workspaces[0]!;
    expect(saved.panes.map((p) => p.id)).toEqual([tile.id]);
    // Its id stays used: a pane restored later never takes it.
    expect(saved.next.pane).toBe(popup.id + 1);
    s.stop();
  });
});
