/**
 * Desktop notifications on agent transitions: into blocked ("needs you": a question is waiting)
 * and into idle from working or blocked ("finished"). At most one per pane per MIN_GAP_MS, so an
 * agent flickering between a prompt and work does not bury the desktop; off with `notify = false`.
 * The tool is looked up at each notification, so one installed while the server runs is used.
 */
import { spawn } from 'node:child_process';
import { isFinish } from './agent/agent-status';
import type { EventBus, EventOf } from './events';
import { chooseNotifyTool, type Notification, type NotifyTool } from './notify-tools';

export const MIN_GAP_MS = 5000;

export interface NotifierOptions {
  readonly bus: EventBus;
  /** Read at each transition, so a config reload takes effect at once. */
  readonly enabled: () => boolean;
  readonly tool: () => NotifyTool | undefined;
  /** Starts the tool; failures (a tool that vanished) are the runner's to swallow. */
  readonly run: (argv: string[]) => void;
  readonly now?: () => number;
}

/** What to say about a transition, or nothing when it is not one worth a notification. */
export function notificationFor(event: EventOf<'agent.state'>): Notification | undefined {
  const agent = event.agent ?? 'an agent';
  const where = `pane ${event.id} (${event.workspace})`;
  const tag = `fux-${event.workspace}-${event.id}`;
  if (event.state === 'blocked' && event.previous !== 'blocked') {
    return { title: `${agent} needs you`, body: `${where} is waiting for an answer`, tag };
  }
  if (isFinish(event.previous, event.state)) {
    return { title: `${agent} finished`, body: `${where} is back at its prompt`, tag };
  }
  return undefined;
}

export class Notifier {
  private readonly lastSent = new Map<string, number>();
  private readonly stopListening: () => void;

  constructor(private readonly options: NotifierOptions) {
    this.stopListening = options.bus.listen((event) => {
      if (event.type === 'agent.state') this.transition(event);
      else if (event.type === 'pane.closed') this.lastSent.delete(`${event.workspace}\0${event.id}`);
    });
  }

  close(): void {
    this.stopListening();
  }

  private transition(event: EventOf<'agent.state'>): void {
    if (!this.options.enabled()) return;
    const notification = notificationFor(event);
    if (notification === undefined) return;
    const key = `${event.workspace}\0${event.id}`;
    const now = (this.options.now ?? Date.now)();
    const last = this.lastSent.get(key);
    if (last !== undefined && now - last < MIN_GAP_MS) return;
    const tool = this.options.tool();
    if (tool === undefined) return;
    this.lastSent.set(key, now);
    this.options.run(tool.argv(notification));
  }
}

/** Runs a notification tool detached from the server: never waited for, its failure ignored. */
export function runDetached(argv: string[], env: NodeJS.ProcessEnv): void {
  const [file, ...args] = argv;
  if (file === undefined) return;
  const child = spawn(file, args, { env, stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

export function platformNotifier(bus: EventBus, enabled: () => boolean, env: NodeJS.ProcessEnv): Notifier {
  return new Notifier({
    bus,
    enabled,
    tool: () => chooseNotifyTool(process.platform, env),
    run: (argv) => runDetached(argv, env),
  });
}
