import { z } from 'zod';
import { agentState } from '../protocol/agent-state';
import { DEFAULT_HISTORY, EventRing } from './event-ring';

/**
 * The server-wide sequence number. Every event but `pane.output` takes the next one (1, 2, 3, …
 * since the server started), so among those a hole is a lost event; a `pane.output` nudge is
 * outside the sequence: it carries the seq of the last sequenced event before it, is never
 * replayed, and may be dropped or coalesced.
 */
const seq = z
  .number()
  .int()
  .describe(
    'server-wide sequence number; pane.output repeats the last one (nudges are outside the sequence)',
  );

/** Every event carries its type, its workspace, its seq and when it happened (ms since the epoch). */
const base = { workspace: z.string(), seq, ts: z.number() };

/** The `visible_*` flags that are set: the screen shows the state outright rather than zor inferring it. */
export const visibleFlags = z
  .array(z.enum(['idle', 'blocker', 'working']))
  .describe('the visible_* flags set: the screen shows an idle prompt, a question (blocker), a spinner');

export const exitStatus = z.object({
  code: z.number().nullable().describe('exit code, null when killed by a signal'),
  signal: z.number().nullable().describe('the signal number that ended it, or null'),
});

/** How a saved pane came back after a restart (the `workspace.restored` event, `fux restore --dry-run`). */
export const restoredPane = z.object({
  id: z.number(),
  how: z
    .enum(['survived', 'restarted', 'resumed', 'not-restarted'])
    .describe(
      'survived: its program kept running under its holder while no server ran, and was taken back (same pid); restarted: its argv again, in its cwd; resumed: its agent session (claude --resume, codex resume); not-restarted: its history and [exited]',
    ),
  command: z.array(z.string()).describe('what it runs now (not-restarted: what it ran before)'),
  cwd: z.string(),
  session: z.string().nullable().describe('the agent session id it resumed'),
  reason: z.string().nullable().describe('why it is not as it was; null when it is'),
});

export const eventSchemas = {
  'pane.opened': z.object({
    type: z.literal('pane.opened'),
    ...base,
    id: z.number(),
    tab: z.number().nullable().describe('the id of the tab it is tiled in; null: it is the popup'),
    command: z.array(z.string()),
    pid: z.number(),
  }),
  'pane.closed': z.object({ type: z.literal('pane.closed'), ...base, id: z.number(), exit: exitStatus }),
  'pane.focused': z.object({ type: z.literal('pane.focused'), ...base, id: z.number() }),
  'pane.seen': z
    .object({ type: z.literal('pane.seen'), ...base, id: z.number() })
    .describe(
      'a pane whose agent finished while nobody looked at it was looked at (focused in an attached client)',
    ),
  'pane.title': z.object({ type: z.literal('pane.title'), ...base, id: z.number(), title: z.string() }),
  'agent.state': z
    .object({
      type: z.literal('agent.state'),
      ...base,
      id: z.number(),
      agent: z.string().nullable().describe('the agent (its rule set, or what it reported), null with none'),
      previous: agentState,
      state: agentState,
      visible: visibleFlags,
      question: z
        .string()
        .nullable()
        .describe(
          "blocked on a visible question: the line of the screen's blocker region that asks (ends in ?), else its first line; else null",
        ),
    })
    .describe(
      "a pane's agent changed state (or its visible flags changed): zor's rules on the pane's screen, or the pane's own OSC 7877 report; `exited` is the agent's exit (the shell is back), never reported as idle",
    ),
  'pane.output': z
    .object({ type: z.literal('pane.output'), ...base, id: z.number() })
    .describe('a nudge to capture, not the data: at most one per pane per 250 ms'),
  'workspace.resized': z.object({
    type: z.literal('workspace.resized'),
    ...base,
    cols: z.number(),
    rows: z.number(),
  }),
  'client.attached': z
    .object({
      type: z.literal('client.attached'),
      ...base,
      client: z.string(),
      cols: z.number(),
      rows: z.number(),
      remote: z.string().nullable().describe("the remote peer's endpoint id, null for a local client"),
    })
    .describe('a client attached to the workspace (its pane area size)'),
  'client.detached': z
    .object({ type: z.literal('client.detached'), ...base, client: z.string(), reason: z.string() })
    .describe('a client left: it detached, its connection closed, or the workspace went away'),
  'workspace.restored': z
    .object({
      type: z.literal('workspace.restored'),
      ...base,
      trigger: z
        .enum(['crash', 'always', 'manual'])
        .describe('crash: the last server died; always: config restore = "always"; manual: `fux restore`'),
      savedAt: z.number().describe('when the journal was written (ms since the epoch)'),
      restored: z.boolean().describe('false: the workspace did not come back (reason says why)'),
      reason: z.string().nullable(),
      panes: z.array(restoredPane),
    })
    .describe('a workspace saved before a restart came back, or did not (and why), pane by pane'),
} as const;

/**
 * Sent only to a subscriber that asked to resume (`since`) further back than the server's history
 * holds: the events from `from` to `to` are gone. Its seq is `to`, so the next event is `to + 1`.
 */
export const gapSchema = z
  .object({
    type: z.literal('events.gap'),
    seq,
    ts: z.number(),
    from: z.number().int().describe('the first seq lost'),
    to: z.number().int().describe('the last seq lost'),
    lost: z
      .number()
      .int()
      .describe('how many events were lost (to - from + 1), of every type and workspace, filter or not'),
  })
  .describe(
    'the first message of a subscription resumed with `since` when the history no longer holds the seq after it',
  );

export type GapEvent = z.infer<typeof gapSchema>;

export type EventType = keyof typeof eventSchemas;
export const eventTypes = Object.keys(eventSchemas) as EventType[];
export type FuxEvent = { [K in EventType]: z.infer<(typeof eventSchemas)[K]> }[EventType];
export type EventOf<K extends EventType> = z.infer<(typeof eventSchemas)[K]>;

/** What a subscription sends: the bus's events and, first after a resume too far back, a gap. */
export type StreamEvent = FuxEvent | GapEvent;

/**
 * What is emitted: the bus numbers it and, unless the change it reports has its own time (an
 * agent's, which `list` shows as `since`), stamps it. Omit distributes over the union so each
 * event keeps its own fields.
 */
type WithoutStamp<E> = E extends FuxEvent ? Omit<E, 'ts' | 'seq'> & { ts?: number } : never;
export type EventInit = WithoutStamp<FuxEvent>;

type Listener = (e: FuxEvent) => void;

/** Whether an event takes a place in the sequence (and the history): all but the droppable nudges. */
export function isSequenced(e: { readonly type: EventType }): boolean {
  return e.type !== 'pane.output';
}

/**
 * The server's event fan-out. It stamps each event with the time and its seq and keeps the last
 * sequenced ones in `history`, so a subscriber can resume. Listeners must not block: subscribers
 * queue and drain on their own.
 */
export class EventBus {
  private readonly listeners = new Set<Listener>();
  private last = 0;

  constructor(readonly history: EventRing = new EventRing(DEFAULT_HISTORY)) {}

  /** The seq of the last sequenced event (0 before the first). */
  get seq(): number {
    return this.last;
  }

  emit(init: EventInit): void {
    const sequenced = isSequenced(init);
    if (sequenced) this.last++;
    const event = { ...init, seq: this.last, ts: init.ts ?? Date.now() } as FuxEvent;
    if (sequenced) this.history.push(event);
    for (const l of this.listeners) l(event);
  }

  listen(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
