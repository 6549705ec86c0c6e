import { Workspace, type Fitted, type Placed, type Where } from '../../src/server/workspace';
import { merge, noChange, type Change } from '../../src/server/change';
import { eventsOf, Publisher } from '../../src/server/publish';
import { EventBus } from '../../src/server/events';
import type { AgentStatus } from '../../src/server/agent/agent-status';
import { NO_FLAGS } from '../../src/zor';

/** A pty stand-in that records the size the workspace gives it. */
class FakePty implements Fitted {
  cols = 0;
  rows = 0;
  constructor(readonly pid: number) {}
  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
  }
}

interface TestPane extends Placed {
  pane: FakePty;
}

type TestWorkspace = Workspace<TestPane>;

function workspace(): TestWorkspace {
  return new Workspace<TestPane>('w', { cols: 80, rows: 24 });
}

function add(ws: TestWorkspace, where: Where = {}): { entry: TestPane; change: Change } {
  const id = ws.allocatePaneId();
  return ws.add(
    id,
    (placement) => ({ id, placement, pane: new FakePty(1000 + id), command: ['sh'], unseen: false }),
    where,
  );
}

const status = (state: AgentStatus['state']): AgentStatus => ({ agent: 'claude', state, visible: NO_FLAGS });

describe('workspace operations return what they changed', () => {
  test('the first pane opens a tab and takes the focus', () => {
    const ws = workspace();
    const { change } = add(ws);
    expect(change).toEqual({
      ...noChange('w'),
      opened: [{ id: 1, tab: 1, command: ['sh'], pid: 1001 }],
      focus: { from: undefined, to: 1 },
      layout: true,
      tabs: true,
    });
  });

  test('a split opens the pane beside the focused one, refits both, and moves the focus', () => {
    const ws = workspace();
    const first = add(ws).entry;
    const { entry, change } = add(ws, { axis: 'row' });
    expect(change.opened.map((p) => p.id)).toEqual([2]);
    expect(change.focus).toEqual({ from: 1, to: 2 });
    expect(change.layout).toBe(true);
    expect(first.pane.cols + 1 + entry.pane.cols).toBe(80);
  });

  test('focus in a direction with no pane there changes nothing', () => {
    const ws = workspace();
    add(ws);
    expect(ws.focus('left')).toEqual(noChange('w'));
  });

  test('focus by id moves the focus and, in another tab, changes the tabs', () => {
    const ws = workspace();
    add(ws);
    add(ws, { tab: true });
    expect(ws.focus(1)).toEqual({ ...noChange('w'), focus: { from: 2, to: 1 }, tabs: true });
  });

  test('focusing an unseen pane where a client shows the workspace is seeing it: the change says so', () => {
    const ws = workspace();
    const first = add(ws).entry;
    add(ws);
    first.unseen = true;
    // Nobody attached: focusing it is not looking at it.
    ws.focus(1);
    expect(first.unseen).toBe(true);
    ws.focus(2);
    expect(ws.setViewers(1).seen).toBeUndefined();
    expect(ws.focus(1)).toMatchObject({ focus: { from: 2, to: 1 }, seen: 1 });
    expect(first.unseen).toBe(false);
  });

  test('a client attaching sees the focused pane, and what finishes in front of it is not unseen', () => {
    const ws = workspace();
    const first = add(ws).entry;
    first.unseen = true;
    expect(ws.setViewers(1).seen).toBe(1);
    ws.agentMoved(1, { previous: status('working'), current: status('idle'), at: 0, question: undefined });
    expect(first.unseen).toBe(false);
    ws.setViewers(0);
    ws.agentMoved(1, { previous: status('working'), current: status('idle'), at: 0, question: undefined });
    expect(first.unseen).toBe(true);
  });

  test("an agent that finishes in a pane that is not focused leaves it unseen, and the change carries the agent's move", () => {
    const ws = workspace();
    const first = add(ws).entry;
    add(ws);
    const change = ws.agentMoved(1, {
      previous: status('working'),
      current: status('idle'),
      at: 0,
      question: undefined,
    });
    expect(first.unseen).toBe(true);
    expect(change.agent).toEqual({
      id: 1,
      agent: 'claude',
      previous: 'working',
      state: 'idle',
      visible: [],
      question: null,
      ts: 0,
    });
  });

  test('zoom reports the zoom and fills the area; again ends it', () => {
    const ws = workspace();
    add(ws);
    const { entry } = add(ws, { axis: 'row' });
    const zoomed = ws.zoom(undefined);
    expect(zoomed.zoom).toEqual({ id: 2, zoomed: true });
    expect(zoomed.focus).toBeUndefined();
    expect([entry.pane.cols, entry.pane.rows]).toEqual([80, 24]);
    expect(ws.zoom(2).zoom).toEqual({ id: 2, zoomed: false });
  });

  test('removing a pane closes it, refits, and the focus returns to the pane that opened it', () => {
    const ws = workspace();
    const first = add(ws).entry;
    add(ws, { axis: 'row' });
    expect(ws.remove(2)).toEqual({
      ...noChange('w'),
      closed: [2],
      focus: { from: 2, to: 1 },
      layout: true,
      tabs: true,
    });
    expect(first.pane.cols).toBe(80);
    expect(ws.remove(2)).toEqual(noChange('w'));
  });

  test('a resize that cannot move the split changes nothing', () => {
    const ws = workspace();
    add(ws);
    expect(ws.resizePane(1, 5)).toEqual(noChange('w'));
  });

  test('a new size refits and is reported; the same size is no change', () => {
    const ws = workspace();
    const { entry } = add(ws);
    expect(ws.resize({ cols: 100, rows: 30 })).toEqual({
      ...noChange('w'),
      layout: true,
      resized: { cols: 100, rows: 30 },
    });
    expect([entry.pane.cols, entry.pane.rows]).toEqual([100, 30]);
    expect(ws.resize({ cols: 100, rows: 30 })).toEqual(noChange('w'));
  });

  test('a popup is a pane placed over the workspace: opened, refused twice, removed like any pane', () => {
    const ws = workspace();
    add(ws);
    const { entry: popup, change } = add(ws, { popup: { cols: 40, rows: 10 } });
    // It joins the panes in the one id space, in no tab, and leaves the focus where it was.
    expect(change).toEqual({ ...noChange('w'), opened: [{ id: 2, tab: null, command: ['sh'], pid: 1002 }] });
    expect(ws.entry(2)).toBe(popup);
    expect(ws.popup).toBe(popup);
    expect(ws.focused?.id).toBe(1);
    expect([popup.pane.cols, popup.pane.rows]).toEqual([40, 10]);
    expect(ws.popupRect()).toEqual({ x: 20, y: 7, cols: 40, rows: 10 });
    expect(() => add(ws, { popup: undefined })).toThrow(/already shows a popup \(pane 2\)/);
    expect(ws.remove(popup.id)).toEqual({ ...noChange('w'), closed: [2] });
    expect(ws.popup).toBeUndefined();
    expect(ws.panes.has(2)).toBe(false);
  });

  test('a popup is in no tab: what needs a tile refuses it by name; a new size refits it', () => {
    const ws = workspace();
    add(ws);
    const { entry: popup } = add(ws, { popup: undefined });
    for (const op of [
      () => ws.focus(popup.id),
      () => ws.zoom(popup.id),
      () => ws.resizePane(popup.id, 2),
      () => add(ws, { beside: popup.id }),
    ])
      expect(op).toThrow(/pane 2 is the popup of workspace w, in no tab/);
    expect([popup.pane.cols, popup.pane.rows]).toEqual([64, 19]);
    ws.resize({ cols: 100, rows: 30 });
    expect([popup.pane.cols, popup.pane.rows]).toEqual([80, 24]);
    expect(ws.tabs).toHaveLength(1);
  });

  test('whoever is attached looks at the popup: its agent finishing there is not unseen', () => {
    const ws = workspace();
    add(ws);
    const { entry: popup } = add(ws, { popup: undefined });
    ws.setViewers(1);
    expect(ws.lookedAt(popup.id)).toBe(true);
    const change = ws.agentMoved(popup.id, {
      previous: status('working'),
      current: status('idle'),
      at: 0,
      question: undefined,
    });
    expect(change.agent).toMatchObject({ id: popup.id, previous: 'working', state: 'idle' });
    expect(popup.unseen).toBe(false);
  });

  test('selecting the active tab changes nothing; another tab moves the focus', () => {
    const ws = workspace();
    add(ws);
    add(ws, { tab: true });
    expect(ws.selectTab(2)).toEqual(noChange('w'));
    expect(ws.selectTab('next')).toEqual({ ...noChange('w'), focus: { from: 2, to: 1 }, tabs: true });
  });
});

describe('no pane is laid out below the minimum, 2 columns by 1 row', () => {
  const sizes = (ws: TestWorkspace): Array<[number, number, number]> =>
    [...ws.panes.values()].map((e) => [e.id, e.pane.cols, e.pane.rows]);

  test('`new` after `new` in 80x24 ends in "no space for a new pane", refused before anything changes', () => {
    const ws = workspace();
    let refusal: unknown;
    for (let i = 0; i < 40 && refusal === undefined; i++) {
      try {
        ws.check({});
        add(ws);
      } catch (err) {
        refusal = err;
      }
    }
    expect(String(refusal)).toMatch(
      /^TRPCError: no space for a new pane: pane \d+ of workspace w is \d+x\d+, and splitting it (side by side needs 5 columns|stacked needs 3 rows); close a pane/,
    );
    const before = { notation: ws.activeTab!.layout.toNotation(), panes: sizes(ws) };
    expect(() => add(ws)).toThrow(/no space for a new pane/);
    expect({ notation: ws.activeTab!.layout.toNotation(), panes: sizes(ws) }).toEqual(before);
    for (const [, cols, rows] of before.panes) expect([cols >= 2, rows >= 1]).toEqual([true, true]);
    // Another axis or another pane may still have room; a new tab always has.
    expect(add(ws, { tab: true }).entry.pane).toMatchObject({ cols: 80, rows: 24 });
  });

  test('a popup is never narrower than a pane may be, nor placed off the workspace', () => {
    const ws = new Workspace<TestPane>('w', { cols: 3, rows: 3 });
    add(ws);
    const { entry: popup } = add(ws, { popup: { cols: 1, rows: 1 } });
    expect([popup.pane.cols, popup.pane.rows]).toEqual([2, 1]);
    ws.resize({ cols: 1, rows: 1 });
    expect([popup.pane.cols, popup.pane.rows]).toEqual([2, 1]);
    expect(ws.popupRect()).toEqual({ x: 0, y: 0, cols: 2, rows: 1 });
  });

  test('a workspace made smaller than its layout keeps every pty at the minimum or more, and the sizes come back', () => {
    const ws = workspace();
    add(ws);
    for (const axis of ['row', 'column', 'row', 'column'] as const) add(ws, { axis });
    const full = sizes(ws);
    ws.resize({ cols: 2, rows: 2 });
    for (const [, cols, rows] of sizes(ws)) expect([cols >= 2, rows >= 1]).toEqual([true, true]);
    ws.resize({ cols: 80, rows: 24 });
    expect(sizes(ws)).toEqual(full);
  });
});

describe('publish: the events a change makes', () => {
  test('a split: opened, then focused', () => {
    const change: Change = {
      ...noChange('w'),
      opened: [{ id: 2, tab: 1, command: ['sh'], pid: 9 }],
      focus: { from: 1, to: 2 },
      layout: true,
    };
    expect(eventsOf(change)).toEqual([
      { type: 'pane.opened', workspace: 'w', id: 2, tab: 1, command: ['sh'], pid: 9 },
      { type: 'pane.focused', workspace: 'w', id: 2 },
    ]);
  });

  test('a pane that exited: the focus that moved, then closed with its status', () => {
    const change = merge(
      { ...noChange('w'), closed: [2], focus: { from: 2, to: 1 }, layout: true },
      { ...noChange('w'), exited: [{ id: 2, exit: { code: 0, signal: null } }] },
    );
    expect(eventsOf(change)).toEqual([
      { type: 'pane.focused', workspace: 'w', id: 1 },
      { type: 'pane.closed', workspace: 'w', id: 2, exit: { code: 0, signal: null } },
    ]);
  });

  test('the last pane gone: no focus event, as there is nothing focused', () => {
    expect(
      eventsOf({ ...noChange('w'), closed: [1], focus: { from: 1, to: undefined }, gone: true }),
    ).toEqual([]);
  });

  test('titles, agents and sizes become their events; layout, tabs and status alone make none', () => {
    const agent = {
      id: 1,
      agent: null,
      previous: 'none',
      state: 'idle',
      visible: ['idle'],
      question: null,
      ts: 5,
    } as const;
    expect(
      eventsOf({
        ...noChange('w'),
        title: { id: 1, title: 'vim' },
        agent: { ...agent, visible: ['idle'] },
        resized: { cols: 90, rows: 20 },
      }),
    ).toEqual([
      { type: 'pane.title', workspace: 'w', id: 1, title: 'vim' },
      { type: 'agent.state', workspace: 'w', ...agent },
      { type: 'workspace.resized', workspace: 'w', cols: 90, rows: 20 },
    ]);
    expect(eventsOf({ ...noChange('w'), layout: true, tabs: true, status: true })).toEqual([]);
  });

  test('merged focus moves that return where they started are no move', () => {
    const there = { ...noChange('w'), focus: { from: 1, to: 2 } };
    const back = { ...noChange('w'), focus: { from: 2, to: 1 } };
    expect(merge(there, back).focus).toBeUndefined();
  });
});

describe('publish: one way out', () => {
  function publisher(): { p: Publisher; events: string[]; repaints: string[] } {
    const bus = new EventBus();
    const events: string[] = [];
    const repaints: string[] = [];
    bus.listen((e) => events.push(e.type));
    const p = new Publisher(bus, () => true);
    p.watch({ changed: (w) => repaints.push(w), output: () => undefined, bell: () => undefined });
    return { p, events, repaints };
  }

  test('a change reaches the bus and repaints the clients of its workspace', () => {
    const { p, events, repaints } = publisher();
    p.publish({ ...noChange('w'), focus: { from: 1, to: 2 } });
    expect(events).toEqual(['pane.focused']);
    expect(repaints).toEqual(['w']);
  });

  test('a change with no event still repaints (status), and no change does nothing', () => {
    const { p, events, repaints } = publisher();
    p.publish({ ...noChange('w'), status: true });
    p.publish(noChange('w'));
    expect(events).toEqual([]);
    expect(repaints).toEqual(['w']);
  });
});
