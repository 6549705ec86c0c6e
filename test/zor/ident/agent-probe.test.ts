// seed 001 "Identification" and seed 003 §4: the probe scheduler with a fake clock and a scripted
// process table.
import { AgentProbe, type ProbeEvent } from '../../../src/zor/ident/agent-probe';
import { parseRuleSet } from '../../../src/zor/rules/load';
import { proc, ScriptedProcessTable } from '../support/scripted-process-table';

const SETS = [parseRuleSet('id = "claude"\nversion = "1"\n', 'claude.toml')];
const SHELL = 10;
const AGENT = 20;

const shell = () => proc(SHELL, 'bash', ['-bash']);
const claude = (pid = AGENT) => proc(pid, 'claude', ['claude']);

function setup(now = 0) {
  const table = new ScriptedProcessTable(undefined);
  table.foreground(SHELL, shell());
  const probe = new AgentProbe({ table, sets: SETS, child: SHELL, now, resolvePath: () => undefined });
  return { table, probe };
}

const quiet = { screenChanged: false, holdPending: false };

/** Ticks at every due moment up to `until`, returning [time, events] for the ticks that said something. */
function runUntil(probe: AgentProbe, from: number, until: number, input = quiet): [number, ProbeEvent[]][] {
  const said: [number, ProbeEvent[]][] = [];
  for (
    let now = probe.nextTickAt(input.holdPending);
    now <= until;
    now = probe.nextTickAt(input.holdPending)
  ) {
    if (now < from) now = from;
    const events = probe.tick(now, input);
    if (events.length > 0) said.push([now, events]);
  }
  return said;
}

describe('tick cadence', () => {
  it('ticks every 500 ms unidentified, 300 ms identified and 100 ms during a hold', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    expect(probe.nextTickAt(false)).toBe(500);
    table.foreground(AGENT, claude());
    expect(probe.tick(500, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: AGENT }]);
    expect(probe.nextTickAt(false)).toBe(800);
    expect(probe.nextTickAt(true)).toBe(600);
  });

  it('reads only the foreground group on a quiet tick, without listing the job', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    const listings = table.probes;
    probe.tick(500, quiet);
    probe.tick(1000, quiet);
    expect(table.pgidReads).toBe(3);
    expect(table.probes).toBe(listings);
  });

  it('probes on the first tick, finding an agent already in the foreground', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    expect(probe.tick(0, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: AGENT }]);
    expect(probe.identified).toEqual({ agent: 'claude', pid: AGENT });
  });

  it('tries the leader alone first and lists the job only when the leader is not an agent', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    expect(table.jobReads).toBe(0);
    table.foreground(30, proc(30, 'sh', ['sh', 'wrapper.sh']), proc(31, 'claude', ['claude']));
    probe.tick(300, quiet);
    expect(table.jobReads).toBe(1);
    // The listing is given the leader just read, so a table need not read it twice.
    expect(table.jobLeader).toMatchObject({ pid: 30, comm: 'sh' });
  });
});

describe('when the job listing runs', () => {
  it('probes when the foreground group changes', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    const before = table.probes;
    table.foreground(AGENT, claude());
    expect(probe.tick(500, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: AGENT }]);
    expect(table.probes).toBe(before + 1);
  });

  it('re-probes every 5 s while identified (an agent can exec in place)', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    const probesAt: number[] = [];
    for (let now = 300; now <= 10_200; now += 300) {
      const before = table.probes;
      probe.tick(now, quiet);
      if (table.probes > before) probesAt.push(now);
    }
    expect(probesAt).toEqual([5100, 10_200]);
  });

  it('probes every 30 s when no foreground group can be read', () => {
    const { table, probe } = setup();
    table.foreground(undefined);
    probe.tick(0, quiet);
    const probesAt: number[] = [];
    for (let now = 500; now <= 61_000; now += 500) {
      const before = table.probes;
      probe.tick(now, quiet);
      if (table.probes > before) probesAt.push(now);
    }
    expect(probesAt).toEqual([30_000, 60_000]);
  });

  it('opens an acquisition window when the group changes while unidentified: 500 ms for 1.5 s, then 2 s, until 8 s', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    table.foreground(40, proc(40, 'make', ['make']));
    const probesAt: number[] = [];
    for (let now = 500; now <= 12_000; now += 500) {
      const before = table.probes;
      probe.tick(now, quiet);
      if (table.probes > before) probesAt.push(now);
    }
    // The window opened at 500: offsets 0, 500 and 1000 are inside the first 1.5 s; after that a
    // probe every 2 s until the window closes at 8500.
    expect(probesAt).toEqual([500, 1000, 1500, 3500, 5500, 7500]);
  });

  it('opens an acquisition window when the screen changes with no agent, and finds an agent in it', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    const before = table.probes;
    // `exec claude` in the shell: same pid, same group, so only the screen says something happened.
    expect(probe.tick(500, { screenChanged: true, holdPending: false })).toEqual([]);
    expect(probe.tick(1000, quiet)).toEqual([]);
    expect(table.probes).toBe(before + 2);
    table.foreground(SHELL, claude(SHELL));
    expect(probe.tick(1500, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: SHELL }]);
  });

  it('does not probe without a reason while unidentified', () => {
    const { table, probe } = setup();
    probe.tick(0, quiet);
    const before = table.probes;
    for (let now = 500; now <= 20_000; now += 500) probe.tick(now, quiet);
    expect(table.probes).toBe(before);
  });
});

describe('losing the agent', () => {
  it('reports exited at once when the shell is back in the foreground, then lost at the next probe', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    table.foreground(SHELL, shell());
    expect(probe.tick(300, quiet)).toEqual([{ kind: 'exited', agent: 'claude' }]);
    expect(probe.tick(600, quiet)).toEqual([{ kind: 'lost', agent: 'claude' }]);
    expect(probe.identified).toBeUndefined();
  });

  it('treats the shell back with background jobs in its group as an exit too', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    table.foreground(SHELL, shell(), proc(11, 'sleep', ['sleep', '100']));
    expect(probe.tick(300, quiet)).toEqual([{ kind: 'exited', agent: 'claude' }]);
  });

  it('keeps the agent through a foreign foreground job until six probes miss it', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    table.foreground(50, proc(50, 'git', ['git', 'log']));
    const said = runUntil(probe, 300, 40_000);
    // Misses at the group change (300) and at the first 300 ms tick 5 s after each: 5400, 10 500,
    // 15 600, 20 700; the sixth, at 25 800, loses the agent (about thirty seconds).
    expect(said).toEqual([[25_800, [{ kind: 'lost', agent: 'claude' }]]]);
  });

  it('resets the miss count when the agent is seen again', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    table.foreground(50, proc(50, 'git', ['git']));
    runUntil(probe, 300, 20_400);
    table.foreground(AGENT, claude());
    expect(probe.tick(20_700, quiet)).toEqual([]);
    table.foreground(50, proc(50, 'git', ['git']));
    expect(runUntil(probe, 21_000, 45_000)).toEqual([]);
    expect(probe.identified).toEqual({ agent: 'claude', pid: AGENT });
  });

  it('reports a replacement when the same agent comes back under a new pid', () => {
    const { table, probe } = setup();
    table.foreground(AGENT, claude());
    probe.tick(0, quiet);
    table.foreground(AGENT + 1, claude(AGENT + 1));
    expect(probe.tick(300, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: AGENT + 1 }]);
  });

  it('falls back to the command zor was given when the listing is empty', () => {
    const table = new ScriptedProcessTable(SHELL, []);
    const probe = new AgentProbe({ table, sets: SETS, child: SHELL, now: 0, fallbackAgent: 'claude' });
    expect(probe.tick(0, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: SHELL }]);
  });
});
