/**
 * zor's identification probe, put to sleep while its pane is quiet, and on a beat shared by all
 * panes. The probe polls the pty's foreground group every 300-500 ms because no portable event
 * says "the foreground job changed"; but in a pane that prints nothing, nothing changes that
 * matters: starting or leaving an agent means typing (echo), the agent drawing, or the shell
 * printing its prompt again. So the server probes while output is recent and for the probe's
 * acquisition window after it, and an idle pane costs no timer at all.
 *
 * The beat: each tick falls on a multiple of its interval on the server's clock, so the panes
 * probed at one cadence tick together instead of each at its own moment. On this project's
 * machines the first step after a pause pays for cold caches (a `/proc` read: 100-170 µs, against
 * 11 µs warm), and in B2, ten `cat` panes typed into, the detector's steps were 60 % of the
 * server's main thread, each paying that price: 771 steps in a run, 120 µs at the median. On the
 * beat: 584 steps in 86 wake-ups, the first of each 212 µs and the others 41 (total 156 → 98 ms).
 * A pane's cadence stays its interval; only its second tick moves, by at most half of one.
 */
import { AgentProbe, DEFAULT_PROBE_CONFIG, type ProbeOptions } from '../../zor';

/** How long after the last output a pane keeps being probed: the probe's own acquisition window. */
export const QUIET_AFTER_MS = DEFAULT_PROBE_CONFIG.acquisitionMs;

export class QuietProbe extends AgentProbe {
  constructor(
    options: ProbeOptions,
    private readonly awake: () => boolean,
  ) {
    super(options);
  }

  override nextTickAt(holdPending: boolean): number {
    if (!this.awake()) return Number.POSITIVE_INFINITY;
    const at = super.nextTickAt(holdPending);
    return this.ticked ? onBeat(at, this.tickInterval(holdPending)) : at;
  }
}

/** The multiple of `interval` nearest `at`: the beat every probe of that cadence ticks on. */
export function onBeat(at: number, interval: number): number {
  return Math.round(at / interval) * interval;
}
