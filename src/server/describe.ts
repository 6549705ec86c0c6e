import { flagNames } from '../zor';
import type { PaneInfo, WorkspaceInfo } from './schemas';
import type { Workspace } from './workspace';
import { checkoutInfo } from './worktree/checkout';

/** The `list` view of a workspace: every tab with its layout, every pane with its geometry, focus and agent. */
export function describeWorkspace(ws: Workspace): WorkspaceInfo {
  const panes: PaneInfo[] = [];
  const tabs = ws.tabs.map((tab, i) => {
    const rects = ws.rects(tab);
    const active = tab === ws.activeTab;
    for (const id of tab.layout.panes()) {
      const e = ws.panes.get(id);
      const r = rects.get(id);
      if (!e || !r) continue;
      const focused = tab.layout.focused === id;
      const status = e.agent.current;
      const cwd = e.pane.currentCwd();
      panes.push({
        id,
        tab: i + 1,
        command: e.command,
        pid: e.pane.pid,
        cwd,
        title: e.pane.title,
        focused,
        active: active && focused,
        agent: status.agent ?? null,
        state: status.state,
        visible: flagNames(status.visible),
        since: e.agent.since,
        unseen: e.unseen,
        ...(checkoutInfo(cwd) ?? { repo: null, branch: null, worktree: null }),
        restored: e.restored,
        survived: e.survived,
        x: r.x,
        y: r.y,
        cols: r.cols,
        rows: r.rows,
      });
    }
    return {
      number: i + 1,
      id: tab.id,
      active,
      focused: tab.layout.focused,
      zoomed: tab.layout.zoomed ?? null,
      layout: tab.layout.toJSON(),
    };
  });
  return {
    name: ws.name,
    cols: ws.size.cols,
    rows: ws.size.rows,
    status: Object.fromEntries(ws.status),
    tabs,
    panes,
  };
}
