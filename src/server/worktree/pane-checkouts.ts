import type { EventBus, FuxEvent } from '../events';
import type { Pane } from '../pane';
import type { Workspaces } from '../workspaces';
import { describeCheckout, findCheckout, type Checkout, type CheckoutInfo } from './checkout';

interface Known {
  cwd: string;
  checkout: Checkout | undefined;
  info: CheckoutInfo | null;
}

/** Events after which a pane may be somewhere else: it started, it drew (a `cd`, a `git switch`), it got the focus. */
const LOOK_AGAIN: ReadonlySet<FuxEvent['type']> = new Set([
  'pane.opened',
  'pane.output',
  'pane.focused',
  'pane.title',
]);

/**
 * How long after the news the panes it names are looked at: one timer for all of them, never the
 * turn the news came in. A keystroke's echo is a `pane.output`, and the process its event or frame
 * wakes (a script, an attached client) runs on the server's vCPU here, after the server's turn
 * ends: looked at on the next turn (`setImmediate`), the reads of /proc and HEAD were on every
 * echo's path (B2 p50 2.30–2.59× tmux with them, 1.86–2.10× without, docs/benchmarks.md). Too short
 * for a status line to show late.
 */
const LOOK_DELAY_MS = 50;

/**
 * Each pane's git checkout for the status line and the worktree picker, kept up to date off the
 * output path: it is looked at again shortly after the bus's rate-capped `pane.output` nudge (at
 * most every 250 ms per pane, never per write), on open and on focus. A pane whose directory has
 * not changed costs a read of its cwd link and of HEAD (nothing more outside a checkout); git never
 * runs here.
 */
export class PaneCheckouts {
  private readonly known = new WeakMap<Pane, Known>();
  private readonly stop: () => void;
  /** Panes to look at when the timer fires, by workspace. */
  private readonly due = new Map<string, Set<number>>();
  private lookLater: NodeJS.Timeout | undefined;

  constructor(
    bus: EventBus,
    private readonly workspaces: Workspaces,
    /** A pane's checkout or branch changed: its workspace's view is out of date. */
    private readonly changed: (workspace: string) => void,
  ) {
    this.stop = bus.listen((e) => {
      if (!LOOK_AGAIN.has(e.type) || !('id' in e)) return;
      const ids = this.due.get(e.workspace) ?? new Set<number>();
      ids.add(e.id);
      this.due.set(e.workspace, ids);
      if (this.lookLater === undefined) {
        this.lookLater = setTimeout(() => this.lookAtDue(), LOOK_DELAY_MS);
        this.lookLater.unref();
      }
    });
  }

  private lookAtDue(): void {
    this.lookLater = undefined;
    for (const [workspace, ids] of this.due) {
      const panes = this.workspaces.find(workspace)?.panes;
      let changed = false;
      for (const id of ids) {
        const pane = panes?.get(id)?.pane;
        if (pane && this.refresh(pane)) changed = true;
      }
      if (changed) this.changed(workspace);
    }
    this.due.clear();
  }

  /** What is known of a pane's checkout, without looking (null: none, or not looked at yet). */
  of(pane: Pane): CheckoutInfo | null {
    return this.known.get(pane)?.info ?? null;
  }

  /** Look at where the pane is now; whether what it shows changed. */
  refresh(pane: Pane): boolean {
    const cwd = pane.currentCwd();
    const before = this.known.get(pane);
    // Outside a checkout, the same directory stays outside (a `git init` there shows after a `cd`).
    if (before?.cwd === cwd && !before.checkout) return false;
    const checkout = before?.cwd === cwd ? before.checkout : findCheckout(cwd);
    const info = (checkout && describeCheckout(checkout)) ?? null;
    this.known.set(pane, { cwd, checkout: info ? checkout : undefined, info });
    return JSON.stringify(info) !== JSON.stringify(before?.info ?? null);
  }

  dispose(): void {
    this.stop();
    clearTimeout(this.lookLater);
  }
}
