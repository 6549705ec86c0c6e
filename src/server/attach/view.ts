import * as path from 'node:path';
import type { FuxConfig } from '../config';
import type { Workspace, PaneEntry } from '../workspace';
import type { AttachView, ViewPane } from '../../protocol/attach';
import type { CheckoutInfo } from '../worktree/checkout';

type State = ViewPane['state'];

/** Which state a tab shows when its panes differ: the one that most needs the user. */
const URGENCY: Record<State, number> = { blocked: 3, working: 2, idle: 1, exited: 0, none: 0 };

function commandName(argv: readonly string[]): string {
  return path.basename(argv[0] ?? '');
}

function paneTitle(e: PaneEntry): string {
  return e.pane.title || commandName(e.command);
}

/** The workspace as attached clients see it: tabs, the panes that show, status, popup, keys. */
export function buildView(
  ws: Workspace,
  extra: {
    workspaces: string[];
    config: FuxConfig;
    clients: number;
    /** A pane's git checkout as last seen (no looking here: this runs for every frame). */
    checkout: (e: PaneEntry) => CheckoutInfo | null;
  },
): AttachView {
  const tabs = ws.tabs.map((tab, i) => {
    let state: State = 'none';
    let unseen = false;
    for (const id of tab.layout.panes()) {
      const e = ws.panes.get(id);
      if (!e) continue;
      const s = e.agent.current.state;
      if (URGENCY[s] > URGENCY[state]) state = s;
      unseen ||= e.unseen;
    }
    const focused = ws.panes.get(tab.layout.focused);
    return {
      number: i + 1,
      title: focused ? paneTitle(focused) : '',
      panes: tab.layout.panes().length,
      active: tab === ws.activeTab,
      state,
      unseen,
    };
  });

  const panes: ViewPane[] = [];
  const tab = ws.activeTab;
  if (tab) {
    const rects = ws.rects(tab);
    const zoomed = tab.layout.zoomed;
    for (const id of tab.layout.panes()) {
      if (zoomed !== undefined && id !== zoomed) continue;
      const e = ws.panes.get(id);
      const r = rects.get(id);
      if (!e || !r) continue;
      const status = e.agent.current;
      panes.push({
        id,
        x: r.x,
        y: r.y,
        cols: r.cols,
        rows: r.rows,
        focused: tab.layout.focused === id,
        title: paneTitle(e),
        command: commandName(e.command),
        agent: status.agent ?? null,
        state: status.state,
        unseen: e.unseen,
      });
    }
  }

  const checkouts: NonNullable<AttachView['checkouts']> = [];
  // The popup is in no tab, and goes when its program ends: it is not among the checkouts.
  for (const e of ws.tiles()) {
    const c = extra.checkout(e);
    if (c)
      checkouts.push({
        pane: e.id,
        tab: ws.tabNumber(e.placement.tab),
        ...c,
        agent: e.agent.current.agent ?? null,
        state: e.agent.current.state,
      });
  }

  return {
    workspace: ws.name,
    workspaces: extra.workspaces,
    cols: ws.size.cols,
    rows: ws.size.rows,
    tabs,
    panes,
    checkouts,
    zoomed: tab?.layout.zoomed !== undefined,
    status: [...ws.status].map(([segment, text]) => ({ segment, text })),
    popup: popupView(ws),
    keys: { prefix: extra.config.prefix, bindings: extra.config.bindings },
    clients: extra.clients,
  };
}

/** A popup's title is its command, up to a label's length (a command may be 64 KiB). */
const MAX_POPUP_TITLE_CHARS = 256;

/** The popup over the workspace, centred at its size, titled with its command. */
function popupView(ws: Workspace): AttachView['popup'] {
  const popup = ws.popup;
  const rect = ws.popupRect();
  const title = popup?.command.join(' ').slice(0, MAX_POPUP_TITLE_CHARS) ?? '';
  return popup && rect ? { ...rect, id: popup.id, title } : null;
}

const jsonBytes = (view: AttachView): number => Buffer.byteLength(JSON.stringify(view));

/**
 * The view cut down to `maxBytes` of JSON, for a workspace whose tabs or checkouts outgrow a frame
 * (thousands of tabs, each pane in its own repository): first only the checkouts of the panes that
 * show, then fewer tabs, always those nearest the active one (each keeps its number, so the tab bar
 * and a click still name the right tab).
 */
export function trimView(view: AttachView, maxBytes: number): AttachView {
  const shown = new Set(view.panes.map((p) => p.id));
  let trimmed: AttachView = { ...view, checkouts: view.checkouts?.filter((c) => shown.has(c.pane)) };
  const active = Math.max(
    0,
    view.tabs.findIndex((t) => t.active),
  );
  for (let keep = view.tabs.length; jsonBytes(trimmed) > maxBytes && keep > 1;) {
    keep = Math.ceil(keep / 2);
    const start = Math.max(0, Math.min(active - Math.floor(keep / 2), view.tabs.length - keep));
    trimmed = { ...trimmed, tabs: view.tabs.slice(start, start + keep) };
  }
  return trimmed;
}
