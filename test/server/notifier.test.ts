import { EventBus, type EventInit } from '../../src/server/events';
import { Notifier, notificationFor, REDRAW_MS, type Schedule } from '../../src/server/notifier';
import { chooseNotifyTool, type NotifyTool } from '../../src/server/notify-tools';

type AgentStateInit = Extract<EventInit, { type: 'agent.state' }>;

function transition(
  previous: AgentStateInit['previous'],
  state: AgentStateInit['state'],
  options: { id?: number; question?: string } = {},
): AgentStateInit {
  return {
    type: 'agent.state',
    workspace: 'main',
    id: options.id ?? 3,
    agent: 'claude',
    previous,
    state,
    visible: [],
    question: options.question ?? null,
  };
}

const recordingTool: NotifyTool = { name: 'record', argv: (n) => [n.title, n.body, n.tag] };

/** A notifier on an injected clock: `advance` moves time and fires what falls due. */
function harness(options: { enabled?: boolean; tool?: () => NotifyTool | undefined; delayMs?: number } = {}) {
  const bus = new EventBus();
  const runs: string[][] = [];
  let now = 1_000_000;
  let enabled = options.enabled ?? true;
  const looked = new Set<number>();
  const timers = new Set<{ at: number; fire: () => void }>();
  const schedule: Schedule = (fire, ms) => {
    const timer = { at: now + ms, fire };
    timers.add(timer);
    return () => timers.delete(timer);
  };
  const notifier = new Notifier({
    bus,
    enabled: () => enabled,
    finishDelayMs: () => options.delayMs ?? 0,
    lookedAt: (_ws, id) => looked.has(id),
    tool: options.tool ?? (() => recordingTool),
    run: (argv) => void runs.push(argv),
    now: () => now,
    schedule,
  });
  return {
    bus,
    runs,
    notifier,
    titles: () => runs.map((argv) => argv[0]),
    advance: (ms: number) => {
      now += ms;
      for (const timer of [...timers].sort((a, b) => a.at - b.at)) {
        if (timer.at > now) continue;
        timers.delete(timer);
        timer.fire();
      }
    },
    pending: () => timers.size,
    look: (id: number) => void looked.add(id),
    setEnabled: (on: boolean) => void (enabled = on),
  };
}

describe('what a transition is worth saying', () => {
  test("into blocked: the agent needs you, naming the pane, the workspace and the question's first line", () => {
    expect(
      notificationFor({ ...transition('working', 'blocked', { question: 'Bash command' }), seq: 1, ts: 0 }),
    ).toEqual({
      title: 'claude needs you',
      body: 'pane 3 (main) asks: Bash command',
      tag: 'fux-main-3',
    });
    expect(notificationFor({ ...transition('working', 'blocked'), seq: 1, ts: 0 })?.body).toBe(
      'pane 3 (main) is waiting for an answer',
    );
  });

  test('into idle from working or blocked: the agent finished', () => {
    expect(notificationFor({ ...transition('working', 'idle'), seq: 1, ts: 0 })?.title).toBe(
      'claude finished',
    );
    expect(notificationFor({ ...transition('blocked', 'idle'), seq: 1, ts: 0 })?.title).toBe(
      'claude finished',
    );
  });

  test('anything else is not news, an exit included', () => {
    for (const [previous, state] of [
      ['none', 'idle'],
      ['idle', 'working'],
      ['blocked', 'blocked'],
      ['idle', 'none'],
      ['working', 'exited'],
      ['exited', 'idle'],
    ] as const) {
      expect(notificationFor({ ...transition(previous, state), seq: 1, ts: 0 })).toBeUndefined();
    }
  });
});

describe('the notifier', () => {
  test('runs the tool on a transition into blocked', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([['claude needs you', 'pane 3 (main) is waiting for an answer', 'fux-main-3']]);
  });

  test('sends one per transition, however close together', () => {
    const h = harness();
    h.bus.emit(transition('idle', 'working'));
    h.bus.emit(transition('working', 'idle'));
    h.bus.emit(transition('idle', 'working'));
    h.bus.emit(transition('working', 'idle'));
    h.bus.emit(transition('working', 'blocked', { id: 4, question: 'Edit file' }));
    expect(h.titles()).toEqual(['claude finished', 'claude finished', 'claude needs you']);
  });

  test('a blocked prompt redrawn through a blank screen is one notification; a new question is another', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked', { question: 'Bash command' }));
    // The redraw: cleared (idle for a moment), then the same prompt again.
    h.bus.emit(transition('blocked', 'idle'));
    h.advance(REDRAW_MS / 4);
    h.bus.emit(transition('idle', 'blocked', { question: 'Bash command' }));
    h.advance(REDRAW_MS * 2);
    expect(h.titles()).toEqual(['claude needs you']);
    // Answered, then asked something else.
    h.bus.emit(transition('blocked', 'working'));
    h.bus.emit(transition('working', 'blocked', { question: 'Edit file' }));
    expect(h.runs.map((argv) => argv[1])).toEqual([
      'pane 3 (main) asks: Bash command',
      'pane 3 (main) asks: Edit file',
    ]);
  });

  test('the same question asked again after the prompt was gone longer than a redraw is news again', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked', { question: 'Bash command' }));
    h.bus.emit(transition('blocked', 'working'));
    h.advance(REDRAW_MS);
    h.bus.emit(transition('working', 'blocked', { question: 'Bash command' }));
    expect(h.titles()).toEqual(['claude needs you', 'claude needs you']);
  });

  test('nothing for the pane someone is looking at', () => {
    const h = harness();
    h.look(3);
    h.bus.emit(transition('working', 'blocked'));
    h.bus.emit(transition('working', 'idle'));
    h.bus.emit(transition('working', 'blocked', { id: 4 }));
    expect(h.runs.map((argv) => argv[2])).toEqual(['fux-main-4']);
  });

  test('notify_delay holds "finished" for its time, then sends it', () => {
    const h = harness({ delayMs: 5000 });
    h.bus.emit(transition('working', 'idle'));
    h.advance(4999);
    expect(h.runs).toEqual([]);
    h.advance(1);
    expect(h.titles()).toEqual(['claude finished']);
  });

  test('a delayed "finished" is cancelled when the pane leaves idle first', () => {
    const h = harness({ delayMs: 5000 });
    h.bus.emit(transition('working', 'idle'));
    h.advance(2000);
    h.bus.emit(transition('idle', 'working'));
    h.advance(10_000);
    expect(h.runs).toEqual([]);
    expect(h.pending()).toBe(0);
  });

  test('a delayed "finished" is cancelled when the pane is looked at first', () => {
    const h = harness({ delayMs: 5000 });
    h.bus.emit(transition('working', 'idle'));
    h.advance(2000);
    h.look(3);
    h.bus.emit({ type: 'pane.seen', workspace: 'main', id: 3 });
    expect(h.pending()).toBe(0);
    h.advance(10_000);
    expect(h.runs).toEqual([]);
  });

  test('"finished" after blocked waits a redraw\'s time even with no delay configured', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked'));
    h.bus.emit(transition('blocked', 'idle'));
    expect(h.titles()).toEqual(['claude needs you']);
    h.advance(REDRAW_MS);
    expect(h.titles()).toEqual(['claude needs you', 'claude finished']);
  });

  test('is silent when notifications are off, and follows the setting as it changes', () => {
    const h = harness({ enabled: false });
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([]);
    h.setEnabled(true);
    h.bus.emit(transition('idle', 'working'));
    h.bus.emit(transition('working', 'idle'));
    expect(h.runs).toHaveLength(1);
  });

  test('with no tool installed it does nothing, and a tool installed later is used', () => {
    const machine: { tool?: NotifyTool } = {};
    const h = harness({ tool: () => machine.tool });
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([]);
    machine.tool = recordingTool;
    h.bus.emit(transition('blocked', 'working'));
    h.bus.emit(transition('working', 'idle'));
    expect(h.titles()).toEqual(['claude finished']);
  });

  test('stops listening when closed', () => {
    const h = harness();
    h.notifier.close();
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([]);
  });
});

describe('choosing the notification tool', () => {
  const installed =
    (...names: string[]) =>
    (name: string) =>
      names.includes(name);
  const sample = {
    title: 'claude needs you',
    body: 'pane 3 (main) is waiting for an answer',
    tag: 'fux-main-3',
  };

  test('Linux uses notify-send only when a display is set and the tool is installed', () => {
    expect(chooseNotifyTool('linux', { DISPLAY: ':0' }, installed('notify-send'))?.argv(sample)).toEqual([
      'notify-send',
      '--app-name=fux',
      'claude needs you',
      'pane 3 (main) is waiting for an answer',
    ]);
    expect(chooseNotifyTool('linux', { WAYLAND_DISPLAY: 'wayland-0' }, installed('notify-send'))?.name).toBe(
      'notify-send',
    );
    expect(chooseNotifyTool('linux', {}, installed('notify-send'))).toBeUndefined();
    expect(chooseNotifyTool('linux', { DISPLAY: ':0' }, installed())).toBeUndefined();
  });

  test('macOS prefers terminal-notifier and falls back to osascript', () => {
    expect(chooseNotifyTool('darwin', {}, installed('terminal-notifier', 'osascript'))?.name).toBe(
      'terminal-notifier',
    );
    const script = chooseNotifyTool('darwin', {}, installed('osascript'))?.argv({
      ...sample,
      body: 'say "hi"',
    });
    expect(script).toEqual([
      'osascript',
      '-e',
      'display notification "say \\"hi\\"" with title "fux" subtitle "claude needs you"',
    ]);
    expect(chooseNotifyTool('darwin', {}, installed())).toBeUndefined();
  });

  test('Termux uses termux-notification, with the pane as the notification id', () => {
    const env = { PREFIX: '/data/data/com.termux/files/usr' };
    expect(chooseNotifyTool('android', env, installed('termux-notification'))?.argv(sample)).toEqual([
      'termux-notification',
      '--id',
      'fux-main-3',
      '--title',
      'claude needs you',
      '--content',
      'pane 3 (main) is waiting for an answer',
    ]);
    expect(chooseNotifyTool('linux', { TERMUX_VERSION: '0.118' }, installed('notify-send'))).toBeUndefined();
  });
});
