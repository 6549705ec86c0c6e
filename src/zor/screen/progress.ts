/**
 * OSC 9;4 progress reports (ConEmu's, also spoken by Windows Terminal and several agents):
 * `ESC ] 9 ; 4 ; STATE ; PERCENT ST`, STATE 0 clear, 1 normal, 2 error, 3 indeterminate, 4 paused.
 * Other OSC 9 payloads (iTerm2-style notifications, ConEmu's other subcommands) are not progress.
 */
import type { Progress } from './screen-view';

const MAX_STATE = 4;

function parseSmallInt(text: string, max: number): number | undefined {
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
}

/**
 * Reads the data of an OSC 9 (what follows `9;`). `undefined` when it is not a well-formed progress
 * report, which leaves the previous report standing. A clear always reads back as `0:0`.
 */
export function parseProgressOsc(data: string): Progress | undefined {
  const params = data.split(';');
  if (params[0] !== '4' || params.length < 2 || params.length > 3) return undefined;
  const state = parseSmallInt(params[1]!, MAX_STATE);
  if (state === undefined) return undefined;
  const percentText = params[2] ?? '';
  const percent = percentText === '' ? 0 : parseSmallInt(percentText, 100);
  if (percent === undefined) return undefined;
  return { state, percent: state === 0 ? 0 : percent };
}

/** Reads the `STATE:PERCENT` form the `progress` region and fixture headers use. */
export function parseProgressText(text: string): Progress | undefined {
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(text);
  if (!match) return undefined;
  const state = parseSmallInt(match[1]!, MAX_STATE);
  const percent = parseSmallInt(match[2]!, 100);
  return state === undefined || percent === undefined ? undefined : { state, percent };
}
