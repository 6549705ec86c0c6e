// seed 001 "In-band: the state OSC" and seed 003 §6.
import { NO_FLAGS } from '../../../src/zor/agent-state';
import { buildStateOsc, parseStateOsc, STATE_OSC_NUMBER } from '../../../src/zor/emit/state-osc';
import { feed, makeTerminal } from '../support/terminal';

const blocked = {
  state: 'blocked' as const,
  agent: 'claude',
  seq: 12,
  visible: { idle: false, blocker: true, working: false },
  exited: false,
};

describe('OSC 7877', () => {
  it('is built as ESC ] 7877 ; key=value… ESC \\', () => {
    expect(buildStateOsc(blocked)).toBe('\x1b]7877;state=blocked;agent=claude;seq=12;visible=blocker\x1b\\');
  });

  it('omits agent for none, lists flags in order, marks exited and encodes a message', () => {
    expect(buildStateOsc({ state: 'none', agent: 'claude', seq: 3, visible: NO_FLAGS, exited: false })).toBe(
      '\x1b]7877;state=none;seq=3\x1b\\',
    );
    expect(
      buildStateOsc({
        state: 'idle',
        agent: 'a',
        seq: 4,
        visible: { idle: true, blocker: true, working: true },
        exited: true,
        message: 'needs: a; b',
      }),
    ).toBe(
      '\x1b]7877;state=idle;agent=a;seq=4;visible=idle,blocker,working;exited=1;message=needs%3A%20a%3B%20b\x1b\\',
    );
  });

  it('caps a message at 128 bytes without splitting a character', () => {
    const osc = buildStateOsc({ ...blocked, message: 'é'.repeat(100) });
    const message = osc.slice(osc.indexOf('message=') + 'message='.length, -2);
    expect(message.length).toBeLessThanOrEqual(128);
    expect(decodeURIComponent(message)).toBe('é'.repeat(21));
  });

  it('round-trips through parseStateOsc', () => {
    const report = { ...blocked, exited: true, message: 'waiting on you' };
    const params = buildStateOsc(report).slice(`\x1b]${STATE_OSC_NUMBER};`.length, -2);
    expect(parseStateOsc(params)).toEqual(report);
  });

  it('reads exited as a state, and the older state=idle;exited=1 as exited too', () => {
    const exited = { state: 'exited', agent: 'claude', seq: 9, visible: NO_FLAGS, exited: true } as const;
    expect(buildStateOsc(exited)).toBe('\x1b]7877;state=exited;agent=claude;seq=9;exited=1\x1b\\');
    expect(parseStateOsc('state=exited;agent=claude;seq=9;exited=1')).toMatchObject({ state: 'exited' });
    expect(parseStateOsc('state=idle;agent=claude;seq=9;exited=1')).toMatchObject({
      state: 'exited',
      exited: true,
    });
  });

  it('ignores unknown keys and rejects a missing or unknown state or a malformed known key', () => {
    expect(parseStateOsc('state=idle;agent=x;seq=1;colour=blue')).toMatchObject({
      state: 'idle',
      agent: 'x',
      seq: 1,
    });
    expect(parseStateOsc('agent=x;seq=1')).toBeUndefined();
    expect(parseStateOsc('state=busy;seq=1')).toBeUndefined();
    expect(parseStateOsc('state=idle;seq=-1')).toBeUndefined();
    expect(parseStateOsc('state=idle;seq=1;visible=loud')).toBeUndefined();
    expect(parseStateOsc('state=idle;seq=1;message=%E0%A4%A')).toBeUndefined();
  });

  it('reaches a terminal parser as an OSC 7877 with its key=value params (the contract fux reads)', async () => {
    const terminal = makeTerminal(40, 5);
    const received: string[] = [];
    terminal.parser.registerOscHandler(STATE_OSC_NUMBER, (data) => {
      received.push(data);
      return true;
    });
    await feed(terminal, `before${buildStateOsc(blocked)}after`);
    expect(received).toEqual(['state=blocked;agent=claude;seq=12;visible=blocker']);
    expect(['7877', ...received[0]!.split(';')]).toEqual([
      '7877',
      'state=blocked',
      'agent=claude',
      'seq=12',
      'visible=blocker',
    ]);
    expect(terminal.buffer.active.getLine(0)!.translateToString(true)).toBe('beforeafter');
  });
});
