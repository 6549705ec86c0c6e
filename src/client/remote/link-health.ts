/**
 * Whether a connection still answers, judged from the echoes of liveness pings (pure: the caller
 * passes the time). Silence past `stallAfterMs` is a stall (worth telling the user: "reconnecting…"
 * while QUIC keeps retrying the path); silence past `redialAfterMs` means giving up on this
 * connection and dialling a new one, which also finds a peer whose address changed.
 */
export interface LinkHealthSettings {
  stallAfterMs: number;
  redialAfterMs: number;
}

export type LinkChange =
  | { kind: 'stalled'; silentMs: number }
  | { kind: 'resumed'; silentMs: number }
  | { kind: 'abandon'; silentMs: number };

export class LinkHealth {
  private lastHeard: number;
  private state: 'up' | 'stalled' | 'abandoned' = 'up';

  constructor(
    private readonly settings: LinkHealthSettings,
    now: number,
  ) {
    this.lastHeard = now;
  }

  /** When the peer was last heard from. */
  get heardAt(): number {
    return this.lastHeard;
  }

  get stalled(): boolean {
    return this.state !== 'up';
  }

  /** An echo arrived. */
  heard(now: number): LinkChange | undefined {
    const silentMs = now - this.lastHeard;
    this.lastHeard = Math.max(this.lastHeard, now);
    if (this.state !== 'stalled') return undefined;
    this.state = 'up';
    return { kind: 'resumed', silentMs };
  }

  /** Called on a timer: what the silence so far amounts to, once per change. */
  check(now: number): LinkChange | undefined {
    const silentMs = now - this.lastHeard;
    if (this.state === 'abandoned') return undefined;
    if (silentMs >= this.settings.redialAfterMs) {
      this.state = 'abandoned';
      return { kind: 'abandon', silentMs };
    }
    if (this.state === 'up' && silentMs >= this.settings.stallAfterMs) {
      this.state = 'stalled';
      return { kind: 'stalled', silentMs };
    }
    return undefined;
  }
}

/** The wait before redial attempt `attempt` (0-based): quick at first, then every 2 s. */
export function redialDelayMs(attempt: number): number {
  return Math.min(2000, 100 * 2 ** attempt);
}
