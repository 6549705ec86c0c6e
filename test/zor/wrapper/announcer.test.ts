// seed 001 "Output contracts": in-band once per change, heartbeats out-of-band only, --no-osc.
import { NO_FLAGS } from '../../../src/zor/agent-state';
import type { EventSink } from '../../../src/zor/emit/event-sink';
import { TitleRewriter } from '../../../src/zor/emit/title-rewriter';
import { Announcer } from '../../../src/zor/wrapper/announcer';
import type { DetectorEvent } from '../../../src/zor/detector';

function setup(osc: boolean) {
  const injected: string[] = [];
  const lines: string[] = [];
  const sink: EventSink = {
    write: (line) => void lines.push(line),
    dropped: 0,
    close: () => Promise.resolve(),
  };
  const announcer = new Announcer({
    inject: (text) => void injected.push(text),
    title: new TitleRewriter('prefix'),
    osc,
    sink,
    debug: undefined,
    childTitle: () => 'Agent',
    wallClock: () => 1000,
  });
  // The child set its title; its own OSC passed through, so zor adds nothing yet.
  announcer.childSetTitle('Agent');
  expect(injected).toEqual([]);
  return { announcer, injected, lines };
}

const change: DetectorEvent = {
  kind: 'changed',
  state: 'working',
  previous: 'idle',
  agent: 'a',
  seq: 2,
  visible: NO_FLAGS,
  exited: false,
};
const heartbeat: DetectorEvent = {
  kind: 'heartbeat',
  state: 'working',
  agent: 'a',
  seq: 2,
  visible: NO_FLAGS,
  exited: false,
  reason: 'heartbeat',
};

describe('Announcer', () => {
  it('sends a change in-band (OSC and title) and as an event line', () => {
    const { announcer, injected, lines } = setup(true);
    announcer.handle([change]);
    expect(injected).toEqual(['\x1b]7877;state=working;agent=a;seq=2\x1b\\', '\x1b]2;● Agent\x1b\\']);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { t: 'state', state: 'working', previous: 'idle', agent: 'a', seq: 2, title: 'Agent', ts: 1 },
    ]);
  });

  it('sends a heartbeat on the event channel only', () => {
    const { announcer, injected, lines } = setup(true);
    announcer.handle([heartbeat]);
    expect(injected).toEqual([]);
    expect(JSON.parse(lines[0]!)).toEqual({
      t: 'state',
      state: 'working',
      agent: 'a',
      seq: 2,
      title: 'Agent',
      ts: 1,
    });
  });

  it('writes no OSC 7877 with --no-osc, still the title', () => {
    const { announcer, injected } = setup(false);
    announcer.handle([change]);
    expect(injected).toEqual(['\x1b]2;● Agent\x1b\\']);
  });

  it('restores the title and reports the exit', () => {
    const { announcer, injected, lines } = setup(true);
    announcer.handle([change]);
    announcer.childExited({ code: null, signal: 'SIGTERM' });
    expect(injected.at(-1)).toBe('\x1b]2;Agent\x1b\\');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ t: 'exit', code: null, signal: 'SIGTERM', ts: 1 });
  });
});
