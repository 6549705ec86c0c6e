/**
 * Turns each structural change of a workspace (a pane opened or closed, a tab, a layout, focus,
 * zoom, status, size, the workspace gone) into a change record (issue 32), told before anyone
 * hears of the change. A record holds what changed since the workspace's last one: the panes
 * opened and closed, the tabs whose layout changed, so that its size follows the change and not
 * the number of panes. Titles, agent states, cwds and history go to the journal written whole.
 */
import type { Change } from '../change';
import type { PaneId } from '../layout';
import type { Workspace } from '../workspace';
import type { ChangeRecorder } from '../workspaces';
import type { ChangeLog } from './change-log';
import { savedPane, savedTab, type PaneSaving } from './snapshot';

/** What a workspace's last record left it as. */
interface Recorded {
  /** Its panes' ids (ids are not reused in a workspace). */
  panes: Set<PaneId>;
  /** Each tab as JSON, by id. */
  tabs: Map<number, string>;
  /** The rest (size, status, active tab, next ids, tab order) as JSON. */
  rest: string;
}

export class JournalRecorder implements ChangeRecorder {
  private readonly last = new Map<string, Recorded>();

  constructor(
    private readonly o: Omit<PaneSaving, 'history' | 'cwd'> & { changes: ChangeLog; socket: string },
  ) {}

  record(change: Change, ws: Workspace): void {
    if (!structural(change)) return;
    if (change.gone || ws.tiles().length === 0) this.gone(ws.name, false);
    else this.recordNow(ws);
  }

  recorded(): Promise<void> {
    return this.o.changes.durable();
  }

  /**
   * Workspace `name` is gone. `always`: also when this server never recorded it (one the last
   * server had that did not come back).
   */
  gone(name: string, always: boolean): void {
    if (!this.last.delete(name) && !always) return;
    this.o.changes.append({ at: Date.now(), socket: this.o.socket, workspace: name, now: null });
  }

  private recordNow(ws: Workspace): void {
    const was = this.last.get(ws.name);
    const tiles = ws.tiles();
    const panes = new Set(tiles.map((e) => e.id));
    const opened = tiles.filter((e) => !was?.panes.has(e.id));
    const closed = [...(was?.panes ?? [])].filter((id) => !panes.has(id));
    const saved = ws.tabs.map(savedTab);
    const tabs = new Map(saved.map((t) => [t.id, JSON.stringify(t)]));
    const changedTabs = saved.filter((t) => was?.tabs.get(t.id) !== tabs.get(t.id));
    const rest = {
      cols: ws.size.cols,
      rows: ws.size.rows,
      status: Object.fromEntries(ws.status),
      activeTab: ws.activeTab?.id ?? null,
      next: ws.nextIds,
      tabs: [...tabs.keys()],
    };
    const restJson = JSON.stringify(rest);
    // A popup opened or closed, a focus on the pane focused already: nothing to record.
    if (opened.length === 0 && closed.length === 0 && changedTabs.length === 0 && restJson === was?.rest)
      return;
    this.last.set(ws.name, { panes, tabs, rest: restJson });
    this.o.changes.append({
      at: Date.now(),
      socket: this.o.socket,
      workspace: ws.name,
      now: {
        ...rest,
        changedTabs,
        // Its history is the whole journal's to keep: a record stays small. Its cwd is the one it
        // started in: a program started a moment ago may not be there yet (it is still in ours).
        opened: opened.map((e) => savedPane(e, { ...this.o, history: () => '', cwd: (p) => p.pane.cwd })),
        closed,
      },
    });
  }
}

/** Whether a change is one of structure (a title or an agent's state is not). */
function structural(c: Change): boolean {
  return (
    c.opened.length > 0 ||
    c.closed.length > 0 ||
    c.gone ||
    c.layout ||
    c.tabs ||
    c.zoom !== undefined ||
    c.focus !== undefined ||
    c.status ||
    c.resized !== undefined
  );
}
