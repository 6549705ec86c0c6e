import { LIST_PAGE_BYTES } from '../protocol/limits';
import { describeTab, describeTabPanes, workspaceHead } from './describe';
import type { WorkspaceInfo } from './schemas';
import type { Workspace } from './workspace';

/** One `list` reply: the workspaces with the tabs and panes it holds, and where the next starts. */
export interface ListPage {
  workspaces: WorkspaceInfo[];
  /** The `from` of the next page; absent when this is the last. */
  next?: number;
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * The items of a workspace in `list` order: the workspace itself, its tabs, then its panes tab by
 * tab. A page boundary falls between two items, so the number of the first item of a page is all
 * a client needs to ask for the next (there is nothing to keep between calls).
 */
function itemCount(ws: Workspace): number {
  let panes = 0;
  for (const tab of ws.tabs) panes += tab.layout.panes().length;
  return 1 + ws.tabs.length + panes;
}

/**
 * The page of `list` that starts at item `from` (0: the first) and holds as many whole items as
 * fit in `budget` bytes of JSON (at least one, and each fits well inside a frame: see
 * LIST_PAGE_BYTES). tmux lists everything at once; a frame cannot hold thousands of panes, so a
 * reply holds part and the CLI asks for the rest, printing one list (src/client/list-all.ts).
 * Pages are read one call after another, not as one snapshot: a pane that opens or closes between
 * two calls may be missed or listed twice (the CLI drops the second).
 */
export function listPage(all: readonly Workspace[], from: number, budget = LIST_PAGE_BYTES): ListPage {
  const workspaces: WorkspaceInfo[] = [];
  let bytes = 0;
  /** Items this page holds: its first is taken whatever its size, so every page moves on. */
  let placed = 0;
  let at = 0;
  const fits = (size: number): boolean => placed === 0 || bytes + size <= budget;
  for (const ws of all) {
    const count = itemCount(ws);
    if (at + count <= from) {
      at += count;
      continue;
    }
    const info = workspaceHead(ws);
    const head = jsonBytes(info);
    // A page that starts inside this workspace repeats its head, which is not an item of the page.
    if (from <= at) {
      if (!fits(head)) return { workspaces, next: at };
      placed++;
    }
    workspaces.push(info);
    bytes += head;
    // Item numbers within the workspace: 0 is the workspace, then its tabs, then its panes.
    let item = Math.max(1, from - at);
    for (; item <= ws.tabs.length; item++) {
      const tab = describeTab(ws, ws.tabs[item - 1]!, item - 1);
      const size = jsonBytes(tab) + 1;
      if (!fits(size)) return { workspaces, next: at + item };
      info.tabs.push(tab);
      bytes += size;
      placed++;
    }
    let first = 1 + ws.tabs.length;
    for (const [index, tab] of ws.tabs.entries()) {
      const inTab = tab.layout.panes().length;
      if (item >= first + inTab) {
        first += inTab;
        continue;
      }
      for (const pane of describeTabPanes(ws, tab, index, item - first)) {
        const size = jsonBytes(pane) + 1;
        if (!fits(size)) return { workspaces, next: at + item };
        info.panes.push(pane);
        bytes += size;
        placed++;
        item++;
      }
      item = first += inTab;
    }
    at += count;
  }
  return { workspaces };
}
