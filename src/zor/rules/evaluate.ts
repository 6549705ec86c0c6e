/**
 * Rule evaluation, a pure function of a rule set and a screen: the highest-priority rule whose gate
 * matches wins, the earlier rule in the file on a tie. With no match the verdict is plain idle:
 * working signals disappearing is how most agents show they are done, so a set need not encode
 * "nothing is happening". A `skip` verdict is returned as such; the state machine ignores it.
 */
import { NO_FLAGS, type VerdictState, type VisibleFlags } from '../agent-state';
import type { ScreenView } from '../screen/screen-view';
import { gateMatches } from './gate';
import type { Region } from './region';
import { RegionReader } from './region-text';
import type { RuleSet } from './rule-set';

export interface Verdict {
  readonly state: VerdictState;
  /** The winning rule's flags (compile-time checks keep each flag on its own state). */
  readonly visible: VisibleFlags;
  /** The winning rule's id; `undefined` for the idle fallback. */
  readonly rule: string | undefined;
  readonly region: Region | undefined;
}

export const IDLE_FALLBACK: Verdict = {
  state: 'idle',
  visible: NO_FLAGS,
  rule: undefined,
  region: undefined,
};

export function evaluate(set: RuleSet, view: ScreenView): Verdict {
  const reader = new RegionReader(view, set);
  for (const rule of set.rulesByPriority) {
    if (gateMatches(rule.gate, reader.read(rule.region))) {
      return { state: rule.state, visible: rule.visible, rule: rule.id, region: rule.region };
    }
  }
  return IDLE_FALLBACK;
}
