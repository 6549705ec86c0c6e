// The server's probe ticks on a beat shared by all panes (src/server/agent/quiet-probe.ts), with a
// fake clock and a scripted process table.
import { onBeat, QuietProbe } from '../../src/server/agent/quiet-probe';
import { parseRuleSet } from '../../src/zor/rules/load';
import { proc, ScriptedProcessTable } from '../zor/support/scripted-process-table';

const SETS = [parseRuleSet('id = "claude"\nversion = "1"\n', 'claude.toml')];
const quiet = { screenChanged: false, holdPending: false };

function paneProbe(child: number, now: number, awake: () => boolean = () => true): QuietProbe {
  const table = new ScriptedProcessTable(undefined);
  table.foreground(child, proc(child, 'bash', ['-bash']));
  return new QuietProbe({ table, sets: SETS, child, now, resolvePath: () => undefined }, awake);
}

/** Tick `probe` whenever it is due, from its first tick until `until`; the times it ticked. */
function ticks(probe: QuietProbe, until: number, lateness = 0): number[] {
  const at: number[] = [];
  for (let now = probe.nextTickAt(false); now <= until; now = probe.nextTickAt(false) + lateness) {
    probe.tick(now, quiet);
    at.push(now);
  }
  return at;
}

describe('the probe beat', () => {
  it('rounds to the nearest multiple of the interval', () => {
    expect(onBeat(1012, 500)).toBe(1000);
    expect(onBeat(1251, 500)).toBe(1500);
    expect(onBeat(900, 300)).toBe(900);
  });

  it('puts the ticks of panes started at different moments on the same beat', () => {
    const first = ticks(paneProbe(10, 0), 3000);
    const second = ticks(paneProbe(20, 137), 3000);
    const third = ticks(paneProbe(30, 380), 3000);
    // Each pane's first tick is at once; from the second on, all tick together.
    expect(first).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
    expect(second).toEqual([137, 500, 1000, 1500, 2000, 2500, 3000]);
    expect(third).toEqual([380, 1000, 1500, 2000, 2500, 3000]);
  });

  it('keeps the cadence when the timers fire late', () => {
    // Each tick 7 ms after it was due: the next is still due on the beat, not 507 ms later.
    expect(ticks(paneProbe(10, 0), 2100, 7)).toEqual([0, 507, 1007, 1507, 2007]);
  });

  it('ticks at the identified cadence on its own beat', () => {
    const table = new ScriptedProcessTable(undefined);
    table.foreground(20, proc(20, 'claude', ['claude']));
    const probe = new QuietProbe(
      { table, sets: SETS, child: 10, now: 50, resolvePath: () => undefined },
      () => true,
    );
    expect(probe.tick(50, quiet)).toEqual([{ kind: 'found', agent: 'claude', pid: 20 }]);
    expect(probe.nextTickAt(false)).toBe(300);
    expect(probe.nextTickAt(true)).toBe(200);
  });

  it('does not tick while its pane is quiet', () => {
    let awake = true;
    const probe = paneProbe(10, 0, () => awake);
    probe.tick(0, quiet);
    awake = false;
    expect(probe.nextTickAt(false)).toBe(Number.POSITIVE_INFINITY);
  });
});
