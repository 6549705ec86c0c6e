/**
 * Desktop notifications on agent transitions: into blocked ("needs you": a question is waiting,
 * quoted by its first line) and into idle from working or blocked ("finished"). Exactly one per
 * transition, none for a pane someone is looking at (focused in an attached client), and none
 * for what is only a prompt being redrawn: a pane that goes back to blocked on the same question
 * within REDRAW_MS of leaving it was not answered, and "finished" after blocked waits REDRAW_MS
 * for the same reason. `notify_delay` holds "finished" longer; leaving idle or being looked at
 * in the meantime cancels it. Off with `notify = false`. The tool is looked up at each
 * notification, so one installed while the server runs is used.
 */
import { spawn } from 'node:child_process';
import { isFinish } from './agent/agent-status';
import type { EventBus, EventOf, FuxEvent } from './events';
import { chooseNotifyTool, type Notification, type NotifyTool } from './notify-tools';

/** How soon a blocked prompt that comes back is the same prompt redrawn (a clear, then a redraw). */
export const REDRAW_MS = 1000;

/** Runs `fire` after `ms` milliseconds; returns the way to cancel it. Injected so tests own time. */
export type Schedule = (fire: () => void, ms: number) => () => void;

const realSchedule: Schedule = (fire, ms) => {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface NotifierOptions {
  readonly bus: EventBus;
  /** Read at each transition, so a config reload takes effect at once. */
  readonly enabled: () => boolean;
  /** How long "finished" waits (milliseconds), read at each transition. */
  readonly finishDelayMs: () => number;
  /** Whether someone is looking at the pane (no notification for what happens in front of them). */
  readonly lookedAt: (workspace: string, id: number) => boolean;
  readonly tool: () => NotifyTool | undefined;
  /** Starts the tool; failures (a tool that vanished) are the runner's to swallow. */
  readonly run: (argv: string[]) => void;
  readonly now?: () => number;
  readonly schedule?: Schedule;
}

/** What to say about a transition, or nothing when it is not one worth a notification. */
export function notificationFor(event: EventOf<'agent.state'>): Notification | undefined {
  const agent = event.agent ?? 'an agent';
  const where = `pane ${event.id} (${event.workspace})`;
  const tag = `fux-${event.workspace}-${event.id}`;
  if (event.state === 'blocked' && event.previous !== 'blocked') {
    const body =
      event.question === null ? `${where} is waiting for an answer` : `${where} asks: ${event.question}`;
    return { title: `${agent} needs you`, body, tag };
  }
  if (isFinish(event.previous, event.state)) {
    return { title: `${agent} finished`, body: `${where} is back at its prompt`, tag };
  }
  return undefined;
}

/** What the notifier remembers of one pane. */
interface PaneNotes {
  /** The question of the last blocked notification, and when the pane left blocked after it. */
  blocked?: { question: string | null; leftAt: number | undefined };
  /** A "finished" waiting for its delay. */
  cancelFinish?: () => void;
}

export class Notifier {
  private readonly panes = new Map<string, PaneNotes>();
  private readonly stopListening: () => void;
  private readonly now: () => number;
  private readonly schedule: Schedule;

  constructor(private readonly options: NotifierOptions) {
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? realSchedule;
    this.stopListening = options.bus.listen((event) => this.observe(event));
  }

  close(): void {
    this.stopListening();
    for (const notes of this.panes.values()) notes.cancelFinish?.();
  }

  private observe(event: FuxEvent): void {
    if (event.type === 'agent.state') this.transition(event);
    else if (event.type === 'pane.seen' || event.type === 'pane.focused') this.cancelFinishIfLookedAt(event);
    else if (event.type === 'pane.closed') {
      this.notes(event).cancelFinish?.();
      this.panes.delete(key(event));
    }
  }

  private notes(event: { workspace: string; id: number }): PaneNotes {
    const k = key(event);
    let notes = this.panes.get(k);
    if (notes === undefined) this.panes.set(k, (notes = {}));
    return notes;
  }

  private cancelFinishIfLookedAt(event: { workspace: string; id: number }): void {
    const notes = this.panes.get(key(event));
    if (notes?.cancelFinish && this.options.lookedAt(event.workspace, event.id)) {
      notes.cancelFinish();
      notes.cancelFinish = undefined;
    }
  }

  private transition(event: EventOf<'agent.state'>): void {
    const notes = this.notes(event);
    if (event.state !== 'idle') {
      // Left idle before "finished" went out: the turn goes on.
      notes.cancelFinish?.();
      notes.cancelFinish = undefined;
    }
    if (event.previous === 'blocked' && event.state !== 'blocked' && notes.blocked) {
      notes.blocked.leftAt = this.now();
    }
    const notification = notificationFor(event);
    if (notification === undefined) return;
    if (event.state === 'blocked') {
      const last = notes.blocked;
      const redrawn =
        last !== undefined &&
        last.question === event.question &&
        (last.leftAt === undefined || this.now() - last.leftAt < REDRAW_MS);
      notes.blocked = { question: event.question, leftAt: undefined };
      if (!redrawn) this.send(event, notification);
      return;
    }
    // Finished: after the configured delay, and never sooner than a redraw could bring the prompt back.
    const delay = Math.max(this.options.finishDelayMs(), event.previous === 'blocked' ? REDRAW_MS : 0);
    if (delay === 0) {
      notes.blocked = undefined;
      this.send(event, notification);
      return;
    }
    notes.cancelFinish?.();
    notes.cancelFinish = this.schedule(() => {
      notes.cancelFinish = undefined;
      notes.blocked = undefined;
      this.send(event, notification);
    }, delay);
  }

  private send(event: EventOf<'agent.state'>, notification: Notification): void {
    if (!this.options.enabled() || this.options.lookedAt(event.workspace, event.id)) return;
    const tool = this.options.tool();
    if (tool !== undefined) this.options.run(tool.argv(notification));
  }
}

function key(pane: { workspace: string; id: number }): string {
  return `${pane.workspace}\0${pane.id}`;
}

/** Runs a notification tool detached from the server: never waited for, its failure ignored. */
export function runDetached(argv: string[], env: NodeJS.ProcessEnv): void {
  const [file, ...args] = argv;
  if (file === undefined) return;
  const child = spawn(file, args, { env, stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export function platformNotifier(
  options: Pick<NotifierOptions, 'bus' | 'enabled' | 'finishDelayMs' | 'lookedAt'>,
  env: NodeJS.ProcessEnv,
): Notifier {
  return new Notifier({
    ...options,
    tool: () => chooseNotifyTool(process.platform, env),
    run: (argv) => runDetached(argv, env),
  });
}
