import type { PaneId } from './layout';
import type { EventBus, EventInit } from './events';
import { isVisible, type Change } from './change';
import { OutputThrottle } from './throttle';

/** What attached clients watch: a workspace's structure or looks changed, a pane drew, a pane rang. */
export interface WorkspaceWatcher {
  changed(workspace: string): void;
  output(workspace: string, id: PaneId): void;
  bell(workspace: string, id: PaneId): void;
}

/** The events that tell subscribers of a change, in the order things happened. */
export function eventsOf(c: Change): EventInit[] {
  const workspace = c.workspace;
  const events: EventInit[] = [];
  for (const p of c.opened) {
    events.push({ type: 'pane.opened', workspace, id: p.id, tab: p.tab, command: p.command, pid: p.pid });
  }
  if (c.focus?.to !== undefined) events.push({ type: 'pane.focused', workspace, id: c.focus.to });
  if (c.seen !== undefined) events.push({ type: 'pane.seen', workspace, id: c.seen });
  if (c.title) events.push({ type: 'pane.title', workspace, ...c.title });
  if (c.agent) events.push({ type: 'agent.state', workspace, ...c.agent });
  for (const { id, exit } of c.exited) events.push({ type: 'pane.closed', workspace, id, exit });
  if (c.resized) events.push({ type: 'workspace.resized', workspace, ...c.resized });
  return events;
}

/**
 * The one way news of the workspaces leaves them: changes become bus events (and through the bus,
 * notifications and waits) and repaints of the attached clients that show that workspace; pane
 * output and bells, the hot path, go to the watchers directly, and output to the bus as rate-capped
 * nudges.
 */
export class Publisher {
  private readonly watchers = new Set<WorkspaceWatcher>();
  private readonly throttle: OutputThrottle;

  /** `shown` says whether a pane still exists, so a nudge due after it closed is dropped. */
  constructor(
    private readonly bus: EventBus,
    shown: (workspace: string, id: PaneId) => boolean,
  ) {
    this.throttle = new OutputThrottle(250, (workspace, id) => {
      if (shown(workspace, id)) this.bus.emit({ type: 'pane.output', workspace, id });
    });
  }

  /** Watch every workspace (attach sessions do); returns the way to stop. */
  watch(w: WorkspaceWatcher): () => void {
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  publish(change: Change): void {
    for (const e of eventsOf(change)) this.bus.emit(e);
    for (const { id } of change.exited) this.throttle.forget(change.workspace, id);
    if (isVisible(change)) for (const w of this.watchers) w.changed(change.workspace);
  }

  /** A pane has output for subscribers to look at: a `pane.output` nudge, at most every 250 ms. */
  nudge(workspace: string, id: PaneId): void {
    this.throttle.poke(workspace, id);
  }

  /** A pane drew: attached clients repaint now. */
  output(workspace: string, id: PaneId): void {
    for (const w of this.watchers) w.output(workspace, id);
  }

  bell(workspace: string, id: PaneId): void {
    for (const w of this.watchers) w.bell(workspace, id);
  }
}
