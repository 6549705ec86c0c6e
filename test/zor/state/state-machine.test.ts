// seed 001 "Hysteresis" and seed 003 §3: the machine with a fake clock, no pty.
import { NO_FLAGS, type VerdictState, type VisibleFlags } from '../../../src/zor/agent-state';
import type { Verdict } from '../../../src/zor/rules/evaluate';
import { StateMachine, type MachineEvent, type StateChange } from '../../../src/zor/state/state-machine';

function verdict(state: VerdictState, visible: Partial<VisibleFlags> = {}): Verdict {
  return { state, visible: { ...NO_FLAGS, ...visible }, rule: `${state}_rule`, region: { kind: 'whole' } };
}

function changes(events: readonly MachineEvent[]): StateChange[] {
  return events.filter((event): event is StateChange => event.kind === 'changed');
}

/** A machine with an agent found at t=0 and the grace already over at t=GRACE_OVER. */
const GRACE_OVER = 3000;

function watchingMachine(): StateMachine {
  const machine = new StateMachine(0);
  machine.agentFound('claude', 42, 0);
  return machine;
}

function working(at = GRACE_OVER): StateMachine {
  const machine = watchingMachine();
  expect(changes(machine.observe(verdict('working'), at)).map((c) => c.state)).toEqual(['working']);
  return machine;
}

describe('the working → idle hold', () => {
  it('publishes a plain idle on the fourth idle verdict in a row, about 300 ms later', () => {
    const machine = working();
    const t = GRACE_OVER + 50;
    expect(changes(machine.observe(verdict('idle'), t))).toEqual([]);
    expect(machine.holdPending).toBe(true);
    expect(machine.nextDeadline()).toBe(t + 100);
    expect(changes(machine.observe(verdict('idle'), t + 100))).toEqual([]);
    expect(changes(machine.observe(verdict('idle'), t + 200))).toEqual([]);
    const published = changes(machine.observe(verdict('idle'), t + 300));
    expect(published).toEqual([
      expect.objectContaining({ state: 'idle', previous: 'working', agent: 'claude', exited: false }),
    ]);
    expect(machine.holdPending).toBe(false);
  });

  it('counts at most one confirmation per 100 ms recheck', () => {
    const machine = working();
    const t = GRACE_OVER + 50;
    machine.observe(verdict('idle'), t);
    for (let ms = 1; ms <= 20; ms++) expect(changes(machine.observe(verdict('idle'), t + ms))).toEqual([]);
    expect(machine.state).toBe('working');
  });

  it('is cancelled by a working verdict mid-hold', () => {
    const machine = working();
    const t = GRACE_OVER + 50;
    machine.observe(verdict('idle'), t);
    machine.observe(verdict('idle'), t + 100);
    expect(changes(machine.observe(verdict('working'), t + 200))).toEqual([]);
    expect(machine.holdPending).toBe(false);
    // A fresh hold needs four verdicts again.
    machine.observe(verdict('idle'), t + 300);
    machine.observe(verdict('idle'), t + 400);
    expect(changes(machine.observe(verdict('idle'), t + 500))).toEqual([]);
    expect(machine.state).toBe('working');
  });

  it('is forced through by the 700 ms cap with only one confirmation', () => {
    const machine = working();
    const t = GRACE_OVER + 50;
    machine.observe(verdict('idle'), t);
    machine.observe(verdict('idle'), t + 100);
    expect(changes(machine.tick(t + 699))).toEqual([]);
    expect(machine.nextDeadline()).toBe(t + 200);
    const forced = changes(machine.tick(t + 700));
    expect(forced).toEqual([expect.objectContaining({ state: 'idle', previous: 'working' })]);
  });

  it('sets the next deadline to the cap when that is sooner than the recheck', () => {
    const machine = working();
    const t = GRACE_OVER;
    machine.observe(verdict('idle'), t);
    machine.observe(verdict('idle'), t + 650);
    expect(machine.nextDeadline()).toBe(t + 700);
  });

  it('is bypassed by an idle with visible_idle', () => {
    const machine = working();
    const published = changes(machine.observe(verdict('idle', { idle: true }), GRACE_OVER + 10));
    expect(published).toEqual([
      expect.objectContaining({ state: 'idle', visible: { idle: true, blocker: false, working: false } }),
    ]);
  });
});

describe('immediate transitions', () => {
  it('publishes blocked at once from working', () => {
    const machine = working();
    expect(changes(machine.observe(verdict('blocked', { blocker: true }), GRACE_OVER + 1))).toEqual([
      expect.objectContaining({ state: 'blocked', previous: 'working' }),
    ]);
  });

  it('publishes blocked at once from a held idle, ending the hold', () => {
    const machine = working();
    machine.observe(verdict('idle'), GRACE_OVER + 10);
    expect(changes(machine.observe(verdict('blocked'), GRACE_OVER + 20))).toEqual([
      expect.objectContaining({ state: 'blocked', previous: 'working' }),
    ]);
    expect(machine.holdPending).toBe(false);
  });

  it('publishes blocked → plain idle at once', () => {
    const machine = watchingMachine();
    machine.observe(verdict('blocked'), GRACE_OVER);
    expect(changes(machine.observe(verdict('idle'), GRACE_OVER + 1))).toEqual([
      expect.objectContaining({ state: 'idle', previous: 'blocked' }),
    ]);
  });

  it('publishes into working at once', () => {
    const machine = watchingMachine();
    machine.observe(verdict('idle'), GRACE_OVER);
    expect(changes(machine.observe(verdict('working'), GRACE_OVER + 1))).toEqual([
      expect.objectContaining({ state: 'working', previous: 'idle' }),
    ]);
  });

  it('publishes a flag change with the state unchanged, and nothing for a repeat', () => {
    const machine = working();
    expect(changes(machine.observe(verdict('working'), GRACE_OVER + 1))).toEqual([]);
    expect(changes(machine.observe(verdict('working', { working: true }), GRACE_OVER + 2))).toEqual([
      expect.objectContaining({
        state: 'working',
        previous: 'working',
        visible: { idle: false, blocker: false, working: true },
      }),
    ]);
  });
});

describe('startup grace', () => {
  it('swallows idle verdicts for three seconds after the agent is found', () => {
    const machine = watchingMachine();
    expect(changes(machine.observe(verdict('idle', { idle: true }), 2999))).toEqual([]);
    expect(machine.state).toBe('none');
    expect(changes(machine.observe(verdict('idle', { idle: true }), 3000))).toEqual([
      expect.objectContaining({ state: 'idle', previous: 'none' }),
    ]);
  });

  it('lets blocked and working through during the grace', () => {
    const machine = watchingMachine();
    expect(changes(machine.observe(verdict('blocked'), 10)).map((c) => c.state)).toEqual(['blocked']);
    expect(changes(machine.observe(verdict('working'), 20)).map((c) => c.state)).toEqual(['working']);
  });

  it('restarts when the agent is replaced', () => {
    const machine = watchingMachine();
    machine.observe(verdict('working'), 5000);
    machine.agentFound('claude', 43, 6000);
    expect(changes(machine.observe(verdict('idle', { idle: true }), 8999))).toEqual([]);
    expect(changes(machine.observe(verdict('idle', { idle: true }), 9000)).map((c) => c.state)).toEqual([
      'idle',
    ]);
  });

  it('makes its end a deadline so a held-back idle is re-read then', () => {
    const machine = watchingMachine();
    machine.tick(800);
    machine.tick(1600);
    machine.tick(2400);
    expect(machine.nextDeadline()).toBe(3000);
    machine.tick(3000);
    expect(machine.nextDeadline()).toBe(3200);
  });
});

describe('skip and no agent', () => {
  it('leaves the state alone on skip and cancels a hold without publishing', () => {
    const machine = working();
    machine.observe(verdict('idle'), GRACE_OVER + 10);
    expect(changes(machine.observe(verdict('skip'), GRACE_OVER + 110))).toEqual([]);
    expect(machine.holdPending).toBe(false);
    expect(machine.state).toBe('working');
    expect(changes(machine.tick(GRACE_OVER + 800))).toEqual([]);
  });

  it('leaves the state alone without a verdict and cancels a hold', () => {
    const machine = working();
    machine.observe(verdict('idle'), GRACE_OVER + 10);
    expect(changes(machine.observe(undefined, GRACE_OVER + 110))).toEqual([]);
    expect(machine.holdPending).toBe(false);
  });

  it('ignores verdicts while no agent is identified', () => {
    const machine = new StateMachine(0);
    expect(machine.observe(verdict('working'), 10)).toEqual([]);
    expect(machine.state).toBe('none');
  });
});

describe('agent exit and loss', () => {
  it('publishes exited (its own state, not idle) at once, then none when the agent is lost', () => {
    const machine = working();
    machine.observe(verdict('idle'), GRACE_OVER + 10);
    const exited = machine.agentGone(GRACE_OVER + 20);
    expect(exited).toEqual([
      {
        kind: 'changed',
        state: 'exited',
        previous: 'working',
        agent: 'claude',
        seq: 2,
        visible: NO_FLAGS,
        exited: true,
      },
    ]);
    expect(machine.holdPending).toBe(false);
    expect(machine.observe(verdict('working'), GRACE_OVER + 30)).toEqual([]);
    expect(machine.agentLost(GRACE_OVER + 300)).toEqual([
      {
        kind: 'changed',
        state: 'none',
        previous: 'exited',
        agent: 'claude',
        seq: 3,
        visible: NO_FLAGS,
        exited: false,
      },
      { kind: 'agent-lost', agent: 'claude' },
    ]);
    expect(machine.agent).toBeUndefined();
  });

  it('goes straight to none on a loss without an exit (six misses)', () => {
    const machine = working();
    expect(changes(machine.agentLost(GRACE_OVER + 100)).map((c) => [c.previous, c.state])).toEqual([
      ['working', 'none'],
    ]);
  });

  it('announces a found agent, and republishes the state under a different agent', () => {
    const machine = working();
    const events = machine.agentFound('codex', 77, GRACE_OVER + 100);
    expect(events).toEqual([
      { kind: 'agent-found', agent: 'codex', pid: 77 },
      expect.objectContaining({ kind: 'changed', state: 'working', previous: 'working', agent: 'codex' }),
    ]);
    expect(machine.agentFound('codex', 78, GRACE_OVER + 200)).toEqual([
      { kind: 'agent-found', agent: 'codex', pid: 78 },
    ]);
  });

  it('publishes a plain idle after a relaunch following an exit', () => {
    const machine = working();
    machine.agentGone(GRACE_OVER + 10);
    machine.agentFound('claude', 50, GRACE_OVER + 20);
    const later = GRACE_OVER + 20 + 3000;
    expect(changes(machine.observe(verdict('idle'), later))).toEqual([
      expect.objectContaining({ state: 'idle', exited: false }),
    ]);
  });
});

describe('heartbeat and blocker re-announce', () => {
  it('repeats a stable state every 800 ms with the same seq', () => {
    const machine = working(GRACE_OVER);
    const seq = machine.seq;
    expect(machine.nextDeadline()).toBe(GRACE_OVER + 800);
    expect(machine.tick(GRACE_OVER + 799)).toEqual([]);
    expect(machine.tick(GRACE_OVER + 800)).toEqual([
      expect.objectContaining({ kind: 'heartbeat', state: 'working', seq, reason: 'heartbeat' }),
    ]);
    expect(machine.tick(GRACE_OVER + 1599)).toEqual([]);
    expect(machine.tick(GRACE_OVER + 1600)).toEqual([expect.objectContaining({ kind: 'heartbeat', seq })]);
  });

  it('re-announces a visible blocker every 800 ms', () => {
    const machine = watchingMachine();
    machine.observe(verdict('blocked', { blocker: true }), GRACE_OVER);
    for (const at of [800, 1600, 2400]) {
      expect(machine.tick(GRACE_OVER + at)).toEqual([
        expect.objectContaining({ kind: 'heartbeat', state: 'blocked', reason: 'blocker', seq: 1 }),
      ]);
    }
  });

  it('does not re-announce a plain blocked as a blocker', () => {
    const machine = watchingMachine();
    machine.observe(verdict('blocked'), GRACE_OVER);
    expect(machine.tick(GRACE_OVER + 800)).toEqual([expect.objectContaining({ reason: 'heartbeat' })]);
  });

  it('restarts the heartbeat interval at each change', () => {
    const machine = working(GRACE_OVER);
    machine.observe(verdict('blocked'), GRACE_OVER + 500);
    expect(machine.tick(GRACE_OVER + 800)).toEqual([]);
    expect(machine.nextDeadline()).toBe(GRACE_OVER + 1300);
  });

  it('keeps seq monotonic across changes and unchanged across heartbeats', () => {
    const machine = watchingMachine();
    const seqs: number[] = [];
    const record = (events: MachineEvent[]) =>
      events.forEach((event) => {
        if (event.kind === 'changed' || event.kind === 'heartbeat') seqs.push(event.seq);
      });
    record(machine.observe(verdict('working'), 10));
    record(machine.tick(810));
    record(machine.observe(verdict('blocked'), 900));
    record(machine.tick(1700));
    record(machine.tick(2500));
    record(machine.observe(verdict('idle'), 3100));
    expect(seqs).toEqual([1, 1, 2, 2, 2, 3]);
  });
});
