import type { Direction, PaneId, Axis } from './layout';
import { Pane, type CaptureResult, type PaneExit } from './pane';
import { popupSize, Workspace, type PaneEntry, type Size, type Tab } from './workspace';
import { FuxError, noWorkspace } from './errors';
import type { EventBus } from './events';
import { encodeKeys } from '../protocol/send-keys';
import { TERMINAL_ENV, fuxEnv } from '../protocol/env';
import { OutputThrottle } from './throttle';
import type { AgentDetection } from './agent/agent-detection';
import { isFinish, type AgentChange } from './agent/agent-status';
import { flagNames } from '../zor';

/** What the caller of `new`/`split` runs and where: its own cwd and environment unless overridden. */
export interface Launch {
  argv?: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface ServerSettings {
  socket: string;
  defaultSize: Size;
  scrollback: number;
  /** What a pane runs when the caller names no command; empty: the caller's $SHELL. */
  defaultCommand: string[];
  /** Grace before a killed pane that ignored SIGHUP gets SIGKILL. */
  killGraceMs: number;
}

export const defaultSettings = (socket: string): ServerSettings => ({
  socket,
  defaultSize: { cols: 80, rows: 24 },
  scrollback: 10_000,
  defaultCommand: [],
  killGraceMs: 3000,
});

const DEFAULT_WORKSPACE = 'main';

/** Variables the server sets in every pane; a caller's own values (it may run inside a pane) never leak through. */

/** What attached clients watch: a workspace's structure or looks changed, a pane drew, a pane rang. */
export interface WorkspaceWatcher {
  changed(workspace: string): void;
  output(workspace: string, id: PaneId): void;
  bell(workspace: string, id: PaneId): void;
}

/** A program shown in a centred overlay over a workspace until it exits (`popup`). */
export interface PopupEntry {
  id: PaneId;
  pane: Pane;
  command: string[];
  /** The size asked for; the shown size is clamped to the workspace (see `Workspace.popupRect`). */
  want: Size | undefined;
  exited: Promise<PaneExit>;
}

/**
 * Every workspace of the server and the operations the router exposes. This is the one place that
 * spawns and reaps panes and emits their events, so the invariants hold for every client:
 * a pane is in exactly one tab, an empty tab or workspace is removed, every pty follows its rect.
 */
export class Workspaces {
  private readonly byName = new Map<string, Workspace>();
  private readonly throttle: OutputThrottle;
  private readonly watchers = new Set<WorkspaceWatcher>();

  constructor(
    readonly settings: ServerSettings,
    private readonly bus: EventBus,
    private readonly detection: AgentDetection,
  ) {
    this.throttle = new OutputThrottle(250, (ws, id) => {
      if (this.byName.get(ws)?.panes.has(id)) this.bus.emit({ type: 'pane.output', workspace: ws, id });
    });
  }

  /** Watch every workspace (attach sessions do); returns the way to stop. */
  watchAll(w: WorkspaceWatcher): () => void {
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  private changed(ws: Workspace): void {
    for (const w of this.watchers) w.changed(ws.name);
  }

  /** The config's defaults for panes opened from now on. */
  setPaneDefaults(defaults: { defaultCommand: string[]; scrollback: number }): void {
    this.settings.defaultCommand = [...defaults.defaultCommand];
    this.settings.scrollback = defaults.scrollback;
  }

  /** The workspace by name if it exists (no default resolution, no error). */
  find(name: string): Workspace | undefined {
    return this.byName.get(name);
  }

  all(): Workspace[] {
    return [...this.byName.values()];
  }

  /** A request's workspace: the one it names, else the only one, else `main`. */
  resolveName(name: string | undefined): string {
    if (name) return name;
    if (this.byName.size === 1) return this.byName.keys().next().value as string;
    return DEFAULT_WORKSPACE;
  }

  get(name: string | undefined): Workspace {
    const n = this.resolveName(name);
    const ws = this.byName.get(n);
    if (!ws) throw noWorkspace(n);
    return ws;
  }

  create(name: string, size?: Size): Workspace {
    if (this.byName.has(name)) {
      throw new FuxError('CONFLICT', `workspace ${name} already exists; \`fux list -w ${name}\` shows it`);
    }
    const ws = this.unregistered(name);
    if (size) ws.size = size;
    this.byName.set(name, ws);
    return ws;
  }

  private unregistered(name: string): Workspace {
    validateName(name);
    return new Workspace(name, { ...this.settings.defaultSize });
  }

  /**
   * The named workspace, or a new one that is registered only once its first pane has started,
   * so a verb whose program cannot start leaves no empty workspace behind.
   */
  private getOrCreate(name: string | undefined): Workspace {
    const n = this.resolveName(name);
    return this.byName.get(n) ?? this.unregistered(n);
  }

  /** `new`: a pane in the active tab, splitting the focused pane along its longer side. */
  open(wsName: string | undefined, launch: Launch): PaneEntry {
    const ws = this.getOrCreate(wsName);
    const target = ws.focused;
    if (!target) return this.spawnInto(ws, launch, (id) => ws.addTab(id));
    return this.spawnInto(ws, launch, (id) => ws.splitInto(target, ws.longerAxis(target), id));
  }

  /** `split`: the new pane right of (`row`) or below (`column`) the target, default the focused pane. */
  split(wsName: string | undefined, axis: Axis, targetId: PaneId | undefined, launch: Launch): PaneEntry {
    const ws = this.getOrCreate(wsName);
    const target = targetId === undefined ? ws.focused : ws.entry(targetId);
    if (!target) return this.spawnInto(ws, launch, (id) => ws.addTab(id));
    return this.spawnInto(ws, launch, (id) => ws.splitInto(target, axis, id));
  }

  /** `tab new`: a new tab with one pane, made active. */
  openTab(wsName: string | undefined, launch: Launch): PaneEntry {
    const ws = this.getOrCreate(wsName);
    return this.spawnInto(ws, launch, (id) => ws.addTab(id));
  }

  private spawnInto(ws: Workspace, launch: Launch, place: (id: PaneId) => Tab): PaneEntry {
    const id = ws.allocatePaneId();
    const before = ws.focused?.id;
    const { pane, argv } = this.spawnPane(ws, id, launch, ws.size);
    this.byName.set(ws.name, ws);
    const tab = place(id);
    const agent = this.detection.watch(pane, (change) => this.agentChanged(ws, entry, change));
    const entry: PaneEntry = { id, tab, pane, command: argv, agent, unseen: false };
    ws.panes.set(id, entry);
    ws.activeTab = tab;
    ws.fit(tab);
    this.watch(ws, entry);
    this.bus.emit({ type: 'pane.opened', workspace: ws.name, id, tab: tab.id, command: argv, pid: pane.pid });
    this.focusChanged(ws, before);
    this.changed(ws);
    return entry;
  }

  /** Start a pane's program with the server's environment rules; a program that cannot start is a BAD_REQUEST. */
  private spawnPane(
    ws: Workspace,
    id: PaneId,
    launch: Launch,
    size: Size,
    fuxPane: PaneId = id,
  ): { pane: Pane; argv: string[] } {
    const argv = launch.argv?.length
      ? launch.argv
      : this.settings.defaultCommand.length
        ? this.settings.defaultCommand
        : [launch.env.SHELL || '/bin/sh'];
    const env = fuxEnv(
      launch.env,
      { socket: this.settings.socket, workspace: ws.name, pane: fuxPane },
      TERMINAL_ENV,
    );
    try {
      const pane = Pane.spawn({
        argv,
        cwd: launch.cwd,
        env,
        cols: size.cols,
        rows: size.rows,
        scrollback: this.settings.scrollback,
      });
      return { pane, argv };
    } catch (err) {
      throw new FuxError('BAD_REQUEST', (err as Error).message);
    }
  }

  /**
   * `popup`: run a program in an overlay over the workspace until it exits. One at a time per
   * workspace; the promise settles with the exit status when the program ends (or is killed).
   */
  openPopup(wsName: string | undefined, launch: Launch, want: Size | undefined): PopupEntry {
    const ws = this.get(wsName);
    if (ws.popup) {
      throw new FuxError(
        'CONFLICT',
        `workspace ${ws.name} already shows a popup (pane ${ws.popup.id}); it closes when its program exits`,
      );
    }
    const id = ws.allocatePaneId();
    const rect = popupSize(ws.size, want);
    // A popup works on the pane the user was in (a picker, `fux capture $FUX_PANE`), not on itself.
    const { pane, argv } = this.spawnPane(ws, id, launch, rect, ws.focused?.id ?? id);
    let settle!: (exit: PaneExit) => void;
    const exited = new Promise<PaneExit>((r) => (settle = r));
    const popup: PopupEntry = { id, pane, command: argv, want, exited };
    ws.popup = popup;
    pane.on('output', () => {
      for (const w of this.watchers) w.output(ws.name, id);
    });
    pane.on('exit', (exit) => {
      if (ws.popup === popup) ws.popup = undefined;
      pane.dispose();
      this.changed(ws);
      settle(exit);
    });
    this.changed(ws);
    return popup;
  }

  private watch(ws: Workspace, entry: PaneEntry): void {
    const { pane, id } = entry;
    pane.on('output', () => {
      this.throttle.poke(ws.name, id);
      for (const w of this.watchers) w.output(ws.name, id);
    });
    pane.on('title', (title) => {
      this.bus.emit({ type: 'pane.title', workspace: ws.name, id, title });
      this.changed(ws);
    });
    pane.on('bell', () => {
      for (const w of this.watchers) w.bell(ws.name, id);
    });
    pane.on('exit', (exit) => this.reap(ws, entry, exit));
  }

  /**
   * A pane's agent changed state: the `agent.state` event, and attention: an agent that finished
   * while its pane was not the active one is marked unseen until the pane is focused.
   */
  private agentChanged(ws: Workspace, entry: PaneEntry, change: AgentChange): void {
    // A killed pane is out of the layout before its process has gone; it has nothing more to say.
    if (ws.panes.get(entry.id) !== entry) return;
    const { previous, current } = change;
    if (isFinish(previous.state, current.state) && ws.focused !== entry) entry.unseen = true;
    this.bus.emit({
      type: 'agent.state',
      workspace: ws.name,
      id: entry.id,
      agent: current.agent ?? null,
      previous: previous.state,
      state: current.state,
      visible: flagNames(current.visible),
    });
    this.changed(ws);
  }

  /** A pane's process ended: close the pane, tell subscribers with its status, tidy empty containers. */
  private reap(ws: Workspace, entry: PaneEntry, exit: PaneExit): void {
    this.throttle.forget(ws.name, entry.id);
    if (ws.panes.get(entry.id) === entry) this.remove(ws, entry.id);
    entry.agent.dispose();
    entry.pane.dispose();
    this.bus.emit({ type: 'pane.closed', workspace: ws.name, id: entry.id, exit });
  }

  /** Take a pane out of its layout, refit, and drop the workspace when it has nothing left. */
  private remove(ws: Workspace, id: PaneId): void {
    const before = ws.focused?.id;
    const tab = ws.detach(id);
    if (tab && ws.tabs.includes(tab)) ws.fit(tab);
    if (ws.panes.size === 0) {
      this.dropWorkspace(ws);
      return;
    }
    this.focusChanged(ws, before);
    this.changed(ws);
  }

  /** A workspace with no panes left is gone; its popup goes with it. */
  private dropWorkspace(ws: Workspace): void {
    this.byName.delete(ws.name);
    ws.popup?.pane.kill('SIGHUP');
    this.changed(ws);
  }

  private focusChanged(ws: Workspace, before: PaneId | undefined): void {
    const focused = ws.focused;
    // Focusing a pane is seeing it: whatever it finished is no longer news.
    if (focused) focused.unseen = false;
    const now = focused?.id;
    if (now !== undefined && now !== before)
      this.bus.emit({ type: 'pane.focused', workspace: ws.name, id: now });
  }

  focus(wsName: string | undefined, target: PaneId | Direction): PaneId {
    const ws = this.get(wsName);
    const before = ws.focused?.id;
    if (typeof target === 'number') {
      const e = ws.entry(target);
      ws.activeTab = e.tab;
      e.tab.layout.focus(target);
    } else {
      const cur = ws.focused;
      if (!cur) throw new FuxError('PRECONDITION_FAILED', `workspace ${ws.name} has no focused pane`);
      const next = cur.tab.layout.neighbour(cur.id, target, ws.area);
      if (next === undefined) return cur.id;
      cur.tab.layout.focus(next);
    }
    this.focusChanged(ws, before);
    this.changed(ws);
    return ws.focused!.id;
  }

  zoom(wsName: string | undefined, id: PaneId | undefined): { id: PaneId; zoomed: boolean } {
    const ws = this.get(wsName);
    const e = id === undefined ? ws.focused : ws.entry(id);
    if (!e) throw new FuxError('PRECONDITION_FAILED', `workspace ${ws.name} has no pane to zoom`);
    const before = ws.focused?.id;
    ws.activeTab = e.tab;
    e.tab.layout.focus(e.id);
    e.tab.layout.toggleZoom(e.id);
    ws.fit(e.tab);
    this.focusChanged(ws, before);
    this.changed(ws);
    return { id: e.id, zoomed: e.tab.layout.zoomed === e.id };
  }

  /** Close a pane now and end its process: SIGHUP as a closed terminal would, SIGKILL if it lingers. */
  kill(wsName: string | undefined, id: PaneId): void {
    const ws = this.get(wsName);
    if (ws.popup?.id === id) {
      ws.popup.pane.kill('SIGHUP');
      return;
    }
    const entry = ws.entry(id);
    this.remove(ws, id);
    entry.pane.kill('SIGHUP');
    const timer = setTimeout(() => {
      if (!entry.pane.exit) entry.pane.kill('SIGKILL');
    }, this.settings.killGraceMs);
    timer.unref();
    entry.pane.on('exit', () => clearTimeout(timer));
  }

  resize(wsName: string | undefined, id: PaneId, delta: number): boolean {
    const ws = this.get(wsName);
    const e = ws.entry(id);
    const changed = e.tab.layout.resize(id, delta, ws.area);
    if (changed) {
      ws.fit(e.tab);
      this.changed(ws);
    }
    return changed;
  }

  sendKeys(wsName: string | undefined, id: PaneId, keys: string[], literal: boolean): number {
    const e = this.get(wsName).entry(id);
    const appCursor = e.pane.terminal.modes.applicationCursorKeysMode;
    const bytes = encodeKeys(keys, { literal, appCursor });
    e.pane.write(bytes);
    return Buffer.byteLength(bytes);
  }

  capture(wsName: string | undefined, id: PaneId, attrs: boolean, scrollback: number): CaptureResult {
    return this.get(wsName).entry(id).pane.capture({ attrs, scrollback });
  }

  /** `tab next|prev|N`: make a tab active. Returns its number (1-based). */
  selectTab(wsName: string | undefined, which: 'next' | 'prev' | number): number {
    const ws = this.get(wsName);
    const before = ws.focused?.id;
    const cur = ws.activeTab ? ws.tabs.indexOf(ws.activeTab) : 0;
    const n = ws.tabs.length;
    const index = which === 'next' ? (cur + 1) % n : which === 'prev' ? (cur - 1 + n) % n : which - 1;
    ws.activeTab = ws.tabByNumber(index + 1);
    this.focusChanged(ws, before);
    this.changed(ws);
    return index + 1;
  }

  setStatus(wsName: string | undefined, segment: string, text: string): void {
    const ws = this.get(wsName);
    if (text === '') ws.status.delete(segment);
    else ws.status.set(segment, text);
    this.changed(ws);
  }

  resizeWorkspace(wsName: string | undefined, size: Size): void {
    const ws = this.get(wsName);
    if (ws.size.cols === size.cols && ws.size.rows === size.rows) return;
    ws.size = size;
    ws.fitAll();
    const popup = ws.popupRect();
    if (popup) ws.popup!.pane.resize(popup.cols, popup.rows);
    this.changed(ws);
    this.bus.emit({ type: 'workspace.resized', workspace: ws.name, cols: size.cols, rows: size.rows });
  }

  /** `workspace kill`: end every pane of it; the workspace is gone at once. */
  killWorkspace(name: string): number {
    const ws = this.get(name);
    const ids = [...ws.panes.keys()];
    for (const id of ids) this.kill(name, id);
    this.dropWorkspace(ws);
    return ids.length;
  }

  /** Server shutdown: every pane gets SIGHUP, as when a terminal closes. */
  hangUpAll(): void {
    for (const ws of this.byName.values()) {
      for (const e of ws.panes.values()) e.pane.kill('SIGHUP');
      ws.popup?.pane.kill('SIGHUP');
    }
  }
}

function validateName(name: string): void {
  if (!/^[\w.@+-]{1,64}$/.test(name)) {
    throw new FuxError(
      'BAD_REQUEST',
      `workspace name ${JSON.stringify(name)} is not allowed; use 1-64 letters, digits, and . _ - @ +`,
    );
  }
}
