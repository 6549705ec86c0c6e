/**
 * The environment of a program fux starts (a pane, a popup, a key binding's command): the caller's
 * variables, then fux's own, which say where the program runs. One policy for every such process.
 */

/** An environment with only the variables that are set (`process.env` may hold undefined). */
export function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** What a program in a pane talks to: the terminal the server emulates for it. */
export const TERMINAL_ENV: Readonly<Record<string, string>> = Object.freeze({
  TERM: 'xterm-256color',
  COLORTERM: 'truecolor',
});

/**
 * The variables that place a program: set by the server for every program it starts, so a
 * caller's own (a `fux new` run inside another pane) never pass through.
 */
const PLACE_VARS = new Set(['FUX_SOCKET', 'FUX_WORKSPACE', 'FUX_PANE']);

export interface FuxPlace {
  socket: string;
  workspace: string;
  /** The pane the program belongs to or acts on; none is an empty FUX_PANE. */
  pane: number | undefined;
}

/** `base` (only its set variables, its FUX_* place dropped), then `extra`, then where it runs. */
export function fuxEnv(
  base: Readonly<Record<string, string | undefined>>,
  place: FuxPlace,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env = Object.fromEntries(Object.entries(definedEnv(base)).filter(([k]) => !PLACE_VARS.has(k)));
  return Object.assign(env, extra, {
    FUX_SOCKET: place.socket,
    FUX_WORKSPACE: place.workspace,
    FUX_PANE: place.pane === undefined ? '' : String(place.pane),
  });
}
