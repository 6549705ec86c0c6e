import { flagNames } from '../zor';
import type { PaneInfo, TabInfo, WorkspaceInfo } from './schemas';
import type { Tab, Workspace } from './workspace';
import { checkoutInfo } from './worktree/checkout';

/** The `list` view of a workspace without its tabs and panes (a page adds those it holds). */
export function workspaceHead(ws: Workspace): WorkspaceInfo {
  return {
    name: ws.name,
    cols: ws.size.cols,
    rows: ws.size.rows,
    status: Object.fromEntries(ws.status),
    tabs: [],
    panes: [],
  };
}

/** The `list` view of tab `index` (from 0) of a workspace: its focus, zoom and layout. */
export function describeTab(ws: Workspace, tab: Tab, index: number): TabInfo {
  return {
    number: index + 1,
    id: tab.id,
    active: tab === ws.activeTab,
    focused: tab.layout.focused,
    zoomed: tab.layout.zoomed ?? null,
    layout: tab.layout.toJSON(),
  };
}

/**
 * The `list` view of the panes of tab `index` (from 0), in layout order, from its `skip`th on:
 * geometry, focus, agent, checkout.
 */
export function describeTabPanes(ws: Workspace, tab: Tab, index: number, skip = 0): PaneInfo[] {
  const panes: PaneInfo[] = [];
  const rects = ws.rects(tab);
  const active = tab === ws.activeTab;
  for (const id of tab.layout.panes().slice(skip)) {
    const e = ws.panes.get(id);
    const r = rects.get(id);
    if (!e || !r) continue;
    const focused = tab.layout.focused === id;
    const status = e.agent.current;
    const cwd = e.pane.currentCwd();
    panes.push({
      id,
      tab: index + 1,
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
  return panes;
}
