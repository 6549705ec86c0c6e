/**
 * The vocabulary every zor module shares: the five published agent states, the verdict a rule can
 * produce, and the three `visible_*` flags.
 */

/**
 * What zor announces about a pane: an agent working, blocked on a question, idle, exited (the
 * shell is back in front; until identification lets go of it, then none), or no agent.
 */
export type AgentState = 'working' | 'blocked' | 'idle' | 'exited' | 'none';

/** What a rule can conclude; `skip` means "leave the published state alone" (a viewer or picker is up). */
export type VerdictState = 'working' | 'blocked' | 'idle' | 'skip';

export const AGENT_STATES: readonly AgentState[] = ['working', 'blocked', 'idle', 'exited', 'none'];
export const VERDICT_STATES: readonly VerdictState[] = ['working', 'blocked', 'idle', 'skip'];

/**
 * Whether the screen shows the state outright rather than zor inferring it: an unmistakable prompt
 * (`idle`), a question the user must answer (`blocker`), a spinner or progress line (`working`).
 */
export interface VisibleFlags {
  readonly idle: boolean;
  readonly blocker: boolean;
  readonly working: boolean;
}

export type VisibleFlagName = keyof VisibleFlags;

/** The order flags are listed in everywhere (OSC `visible=`, event lines). */
export const VISIBLE_FLAG_NAMES: readonly VisibleFlagName[] = ['idle', 'blocker', 'working'];

export const NO_FLAGS: VisibleFlags = { idle: false, blocker: false, working: false };

export function sameFlags(a: VisibleFlags, b: VisibleFlags): boolean {
  return a.idle === b.idle && a.blocker === b.blocker && a.working === b.working;
}

export function flagNames(flags: VisibleFlags): VisibleFlagName[] {
  return VISIBLE_FLAG_NAMES.filter((name) => flags[name]);
}
