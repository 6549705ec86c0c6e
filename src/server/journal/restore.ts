import type { EventBus, EventOf } from '../events';
import { TabLayout } from '../layout';
import type { RestoringWorkspace, Workspaces } from '../workspaces';
import type { PanePlan, WorkspacePlan } from './restore-plan';
import type { AgentSessions } from './snapshot';

export type RestoreTrigger = EventOf<'workspace.restored'>['trigger'];
export type RestoreReport = Omit<EventOf<'workspace.restored'>, 'ts' | 'type' | 'seq'>;

/** A pane's plan as the event and `--dry-run` tell it. */
export function paneReport(p: PanePlan): RestoreReport['panes'][number] {
  return {
    id: p.id,
    how: p.how,
    command: p.how === 'not-restarted' ? p.saved : p.argv,
    cwd: p.cwd,
    session: p.how === 'resumed' ? (p.session?.id ?? null) : null,
    reason: p.reason,
  };
}

/**
 * Bring back the planned workspaces, each on its own: one that cannot come back (a damaged
 * layout, a program that fails to start) is reported and the others still come. Every workspace
 * of the plan gets a `workspace.restored` event saying what came back and what did not.
 */
export function applyRestore(
  plans: readonly WorkspacePlan[],
  o: {
    workspaces: Workspaces;
    bus: EventBus;
    sessions: AgentSessions;
    trigger: RestoreTrigger;
    savedAt: number;
  },
): RestoreReport[] {
  return plans.map((plan) => {
    let report: RestoreReport = {
      workspace: plan.saved.name,
      trigger: o.trigger,
      savedAt: o.savedAt,
      restored: plan.restored,
      reason: plan.reason,
      panes: plan.panes.map(paneReport),
    };
    if (plan.restored) {
      try {
        const ws = o.workspaces.restore(restoring(plan));
        // A resumed pane is in the session it was resumed into until its agent writes another.
        for (const p of plan.panes) {
          const entry = ws.panes.get(p.id);
          if (entry && p.how === 'resumed' && p.session) o.sessions.set(entry, p.session);
        }
      } catch (err) {
        report = { ...report, restored: false, reason: (err as Error).message, panes: [] };
      }
    }
    o.bus.emit({ type: 'workspace.restored', ...report });
    return report;
  });
}

function restoring(plan: WorkspacePlan): RestoringWorkspace {
  const ws = plan.saved;
  return {
    name: ws.name,
    size: { cols: ws.cols, rows: ws.rows },
    status: ws.status,
    tabs: ws.tabs.map((t) => ({
      id: t.id,
      layout: TabLayout.restore(t.layout, t.recent, t.zoomed ?? undefined),
      panes: plan.panes
        .filter((p) => p.tab === t.id)
        .map((p) => ({
          id: p.id,
          launch: { argv: p.argv, cwd: p.cwd, env: p.env, preface: p.preface, adopt: p.adopt },
          command: p.how === 'not-restarted' ? p.saved : p.argv,
        })),
    })),
    activeTab: ws.activeTab ?? undefined,
    next: ws.next,
  };
}
