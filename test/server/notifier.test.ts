import { EventBus, type EventInit } from '../../src/server/events';
import { MIN_GAP_MS, Notifier, notificationFor } from '../../src/server/notifier';
import { chooseNotifyTool, type NotifyTool } from '../../src/server/notify-tools';

type AgentStateInit = Extract<EventInit, { type: 'agent.state' }>;

function transition(
  previous: AgentStateInit['previous'],
  state: AgentStateInit['state'],
  id = 3,
): AgentStateInit {
  return { type: 'agent.state', workspace: 'main', id, agent: 'claude', previous, state, visible: [] };
}

const recordingTool: NotifyTool = { name: 'record', argv: (n) => [n.title, n.body, n.tag] };

function harness(options: { enabled?: boolean; tool?: () => NotifyTool | undefined } = {}) {
  const bus = new EventBus();
  const runs: string[][] = [];
  let now = 1_000_000;
  let enabled = options.enabled ?? true;
  const notifier = new Notifier({
    bus,
    enabled: () => enabled,
    tool: options.tool ?? (() => recordingTool),
    run: (argv) => void runs.push(argv),
    now: () => now,
  });
  return {
    bus,
    runs,
    notifier,
    advance: (ms: number) => void (now += ms),
    setEnabled: (on: boolean) => void (enabled = on),
  };
}

describe('what a transition is worth saying', () => {
  test('into blocked: the agent needs you, naming the pane and workspace', () => {
    expect(notificationFor({ ...transition('working', 'blocked'), ts: 0 })).toEqual({
      title: 'claude needs you',
      body: 'pane 3 (main) is waiting for an answer',
      tag: 'fux-main-3',
    });
  });

  test('into idle from working or blocked: the agent finished', () => {
    expect(notificationFor({ ...transition('working', 'idle'), ts: 0 })?.title).toBe('claude finished');
    expect(notificationFor({ ...transition('blocked', 'idle'), ts: 0 })?.title).toBe('claude finished');
  });

  test('anything else is not news', () => {
    for (const [previous, state] of [
      ['none', 'idle'],
      ['idle', 'working'],
      ['blocked', 'blocked'],
      ['idle', 'none'],
    ] as const) {
      expect(notificationFor({ ...transition(previous, state), ts: 0 })).toBeUndefined();
    }
  });
});

describe('the notifier', () => {
  test('runs the tool on a transition into blocked', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([['claude needs you', 'pane 3 (main) is waiting for an answer', 'fux-main-3']]);
  });

  test('sends at most one per pane within the gap, and again after it', () => {
    const h = harness();
    h.bus.emit(transition('working', 'blocked'));
    h.advance(MIN_GAP_MS - 1);
    h.bus.emit(transition('blocked', 'idle'));
    h.bus.emit(transition('working', 'blocked', 4));
    expect(h.runs.map((argv) => argv[2])).toEqual(['fux-main-3', 'fux-main-4']);
    h.advance(1);
    h.bus.emit(transition('idle', 'working'));
    h.bus.emit(transition('working', 'idle'));
    expect(h.runs.map((argv) => argv[0])).toEqual([
      'claude needs you',
      'claude needs you',
      'claude finished',
    ]);
  });

  test('is silent when notifications are off, and follows the setting as it changes', () => {
    const h = harness({ enabled: false });
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([]);
    h.setEnabled(true);
    h.bus.emit(transition('blocked', 'idle'));
    expect(h.runs).toHaveLength(1);
  });

  test('with no tool installed it does nothing, and a tool installed later is used', () => {
    const machine: { tool?: NotifyTool } = {};
    const h = harness({ tool: () => machine.tool });
    h.bus.emit(transition('working', 'blocked'));
    expect(h.runs).toEqual([]);
    machine.tool = recordingTool;
    h.bus.emit(transition('blocked', 'idle'));
    expect(h.runs.map((argv) => argv[0])).toEqual(['claude finished']);
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
