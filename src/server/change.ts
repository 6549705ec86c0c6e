import type { PaneId } from './layout';
import type { PaneExit } from './pane';
import type { AgentState, VisibleFlagName } from '../zor';

/** A pane that joined the workspace, with what its `pane.opened` event says of it. */
export interface OpenedPane {
  id: PaneId;
  /** The tab it is tiled in; null: it is the popup. */
  tab: number | null;
  command: string[];
  pid: number;
}

/** A pane's agent changed state, as its `agent.state` event says it. */
export interface AgentMove {
  id: PaneId;
  agent: string | null;
  previous: AgentState;
  state: AgentState;
  visible: VisibleFlagName[];
  question: string | null;
  /** When the agent changed (ms since the epoch): the event's time and `list`'s `since` alike. */
  ts: number;
}

/**
 * What one operation did to one workspace. Workspace operations return it and `publish` turns it
 * into events and repaints, so what a verb reports is what it did: a verb cannot change the
 * workspace and forget to tell anyone, and a verb that changed nothing tells no one.
 */
export interface Change {
  readonly workspace: string;
  /** Panes that joined (a tab, or as the popup). */
  readonly opened: readonly OpenedPane[];
  /** Panes that left (a kill, or their program ended), tiled or popup. */
  readonly closed: readonly PaneId[];
  /** Panes whose program ended, with its status (they have left the layout). */
  readonly exited: ReadonlyArray<{ id: PaneId; exit: PaneExit }>;
  /** The focused pane moved (set only when it is another pane than before). */
  readonly focus?: { from: PaneId | undefined; to: PaneId | undefined };
  /** Pane rects changed: a split, a close, a resize, a zoom, a new workspace size. */
  readonly layout: boolean;
  /** The tabs changed: one opened or closed, another became active. */
  readonly tabs: boolean;
  /** A pane zoomed in or out. */
  readonly zoom?: { id: PaneId; zoomed: boolean };
  readonly title?: { id: PaneId; title: string };
  readonly agent?: AgentMove;
  /** An unseen pane was looked at (see Workspace.lookedAt): what it finished is no longer news. */
  readonly seen?: PaneId;
  /** The status segments changed. */
  readonly status: boolean;
  /** The workspace's size, when it changed. */
  readonly resized?: { cols: number; rows: number };
  /** The workspace is gone (its last tiled pane closed, or it was killed). */
  readonly gone: boolean;
}

/** A change that changed nothing, to build on. */
export function noChange(workspace: string): Change {
  return {
    workspace,
    opened: [],
    closed: [],
    exited: [],
    layout: false,
    tabs: false,
    status: false,
    gone: false,
  };
}

/** Two changes of one workspace, one after the other, as one. */
export function merge(a: Change, b: Change): Change {
  const focus =
    a.focus && b.focus
      ? a.focus.from === b.focus.to
        ? undefined
        : { from: a.focus.from, to: b.focus.to }
      : (b.focus ?? a.focus);
  return {
    workspace: a.workspace,
    opened: [...a.opened, ...b.opened],
    closed: [...a.closed, ...b.closed],
    exited: [...a.exited, ...b.exited],
    focus,
    layout: a.layout || b.layout,
    tabs: a.tabs || b.tabs,
    zoom: b.zoom ?? a.zoom,
    title: b.title ?? a.title,
    agent: b.agent ?? a.agent,
    seen: b.seen ?? a.seen,
    status: a.status || b.status,
    resized: b.resized ?? a.resized,
    gone: a.gone || b.gone,
  };
}

/** Whether attached clients see something different after this change (and so get a new view). */
export function isVisible(c: Change): boolean {
  return (
    c.opened.length > 0 ||
    c.closed.length > 0 ||
    c.exited.length > 0 ||
    c.focus !== undefined ||
    c.layout ||
    c.tabs ||
    c.zoom !== undefined ||
    c.title !== undefined ||
    c.agent !== undefined ||
    c.seen !== undefined ||
    c.status ||
    c.resized !== undefined ||
    c.gone
  );
}
