/**
 * The journal as the change log leaves it (issue 32): each record after the journal's own `seq`,
 * in order, over the last journal written whole, or over nothing when the server died before it
 * wrote one. Records carry no history: a pane keeps what the journal saved of it, also one this
 * server restored at its old id.
 */
import { JOURNAL_VERSION, type ChangeRecord, type Journal, type SavedWorkspace } from './schema';

type Now = NonNullable<ChangeRecord['now']>;

export function replay(
  base: Journal | undefined,
  records: readonly ChangeRecord[],
  o: { socket: string; fux: string },
): Journal | undefined {
  const after = records.filter((r) => r.seq > (base?.seq ?? 0));
  const last = after.at(-1);
  if (!last) return base;
  const workspaces = new Map((base?.workspaces ?? []).map((w) => [w.name, w]));
  for (const r of after) {
    if (r.now === null) workspaces.delete(r.workspace);
    else workspaces.set(r.workspace, applied(workspaces.get(r.workspace), r.workspace, r.now));
  }
  return {
    version: JOURNAL_VERSION,
    fux: base?.fux ?? o.fux,
    socket: o.socket,
    savedAt: Math.max(base?.savedAt ?? 0, last.at),
    // Changes after a clean stop's journal: a server ran on from it, and did not stop cleanly.
    closed: false,
    seq: last.seq,
    workspaces: [...workspaces.values()].filter((w) => w.tabs.length > 0 && w.panes.length > 0),
  };
}

/** Workspace `name` after a record of it (`was`: as it was before, if it was). */
function applied(was: SavedWorkspace | undefined, name: string, now: Now): SavedWorkspace {
  const tabs = new Map((was?.tabs ?? []).map((t) => [t.id, t]));
  for (const t of now.changedTabs) tabs.set(t.id, t);
  const before = new Map((was?.panes ?? []).map((p) => [p.id, p]));
  const gone = new Set([...now.closed, ...now.opened.map((p) => p.id)]);
  return {
    name,
    cols: now.cols,
    rows: now.rows,
    status: now.status,
    activeTab: now.activeTab,
    next: now.next,
    // A tab the record names but that no record described is left out: the restore then finds
    // the layout and the panes at odds, and says so.
    tabs: now.tabs.flatMap((id) => tabs.get(id) ?? []),
    panes: [
      ...(was?.panes ?? []).filter((p) => !gone.has(p.id)),
      ...now.opened.map((p) => ({ ...p, history: before.get(p.id)?.history ?? p.history })),
    ],
  };
}
