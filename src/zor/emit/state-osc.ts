/**
 * OSC 7877, zor's in-band state report: `ESC ] 7877 ; state=S ; agent=ID ; seq=N ESC \` (written
 * without the spaces). `state` is required (working, blocked, idle, exited, none; `exited` is the
 * agent's exit with the shell back, always sent with `exited=1` too, and an older
 * `state=idle;exited=1` is read as `exited`), `agent` is present unless the state is `none`, `seq`
 * increases per emission so a consumer seeing two reports in one read knows their order. Optional
 * keys: `visible=idle,blocker,working` (the set flags), `exited=1`, and `message=TEXT`
 * (percent-encoded, at most 128 bytes) for a self-reporting agent. Terminated by ST, never BEL, so a
 * terminal that logs unknown OSCs does not ring. fux parses it from panes with parseStateOsc.
 */
import {
  AGENT_STATES,
  flagNames,
  NO_FLAGS,
  VISIBLE_FLAG_NAMES,
  type AgentState,
  type VisibleFlags,
} from '../agent-state';

export const STATE_OSC_NUMBER = 7877;

const MAX_MESSAGE_BYTES = 128;

export interface StateReport {
  readonly state: AgentState;
  readonly agent: string | undefined;
  readonly seq: number;
  readonly visible: VisibleFlags;
  readonly exited: boolean;
  readonly message: string | undefined;
}

/** Percent-encodes whole characters until the next one would pass 128 bytes. */
function encodeMessage(message: string): string {
  let encoded = '';
  for (const character of message) {
    const piece = encodeURIComponent(character);
    if (encoded.length + piece.length > MAX_MESSAGE_BYTES) break;
    encoded += piece;
  }
  return encoded;
}

/** The OSC 7877 parameters (what follows `ESC ] 7877 ;`). */
export function stateOscParams(
  report: Omit<StateReport, 'message'> & { readonly message?: string | undefined },
): string {
  const params = [`state=${report.state}`];
  if (report.state !== 'none' && report.agent !== undefined) params.push(`agent=${report.agent}`);
  params.push(`seq=${report.seq}`);
  const flags = flagNames(report.visible);
  if (flags.length > 0) params.push(`visible=${flags.join(',')}`);
  if (report.exited) params.push('exited=1');
  if (report.message !== undefined && report.message !== '')
    params.push(`message=${encodeMessage(report.message)}`);
  return params.join(';');
}

export function buildStateOsc(
  report: Omit<StateReport, 'message'> & { readonly message?: string | undefined },
): string {
  return `\x1b]${STATE_OSC_NUMBER};${stateOscParams(report)}\x1b\\`;
}

/**
 * Parses the parameters of an OSC 7877 as a terminal parser hands them over (after `7877;`), e.g.
 * from `terminal.parser.registerOscHandler(7877, data => …)`. Unknown keys are ignored so the
 * format can grow; `undefined` when the state is missing or a known key is malformed.
 */
export function parseStateOsc(params: string): StateReport | undefined {
  const values = new Map<string, string>();
  for (const part of params.split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0) values.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  const state = AGENT_STATES.find((candidate) => candidate === values.get('state'));
  if (state === undefined) return undefined;
  const seqText = values.get('seq') ?? '0';
  if (!/^\d{1,15}$/.test(seqText)) return undefined;
  const visibleText = values.get('visible');
  let visible = NO_FLAGS;
  if (visibleText !== undefined && visibleText !== '') {
    const names = visibleText.split(',');
    if (!names.every((name) => VISIBLE_FLAG_NAMES.some((flag) => flag === name))) return undefined;
    visible = {
      idle: names.includes('idle'),
      blocker: names.includes('blocker'),
      working: names.includes('working'),
    };
  }
  let message: string | undefined;
  const messageText = values.get('message');
  if (messageText !== undefined) {
    try {
      message = decodeURIComponent(messageText);
    } catch {
      return undefined;
    }
  }
  const agent = values.get('agent');
  const exited = values.get('exited') === '1';
  return {
    // Before `exited` was a state of its own, an exit was reported as `state=idle;exited=1`.
    state: exited && state === 'idle' ? 'exited' : state,
    agent: agent === undefined || agent === '' ? undefined : agent,
    seq: Number(seqText),
    visible,
    exited,
    message,
  };
}
