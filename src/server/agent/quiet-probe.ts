/**
 * zor's identification probe, put to sleep while its pane is quiet. The probe polls the pty's
 * foreground group every 300-500 ms because no portable event says "the foreground job changed";
 * but in a pane that prints nothing, nothing changes that matters: starting or leaving an agent
 * means typing (echo), the agent drawing, or the shell printing its prompt again. So the server
 * probes while output is recent and for the probe's acquisition window after it, and an idle pane
 * costs no timer at all.
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
    return this.awake() ? super.nextTickAt(holdPending) : Number.POSITIVE_INFINITY;
  }
}
