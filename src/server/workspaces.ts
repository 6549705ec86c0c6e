import { holderDir } from './holder/holder-dir';
import type { Direction, PaneId, Axis, TabLayout } from './layout';
import { Pane, type CaptureResult, type PaneExit } from './pane';
import {
  popupSize,
  tabOf,
  Workspace,
  type PaneEntry,
  type Placement,
  type Size,
  type Where,
} from './workspace';
import { FuxError, noWorkspace } from './errors';
import type { EventBus } from './events';
import { encodeKeys, KeyNameError } from '../protocol/send-keys';
import { fuxEnv } from '../protocol/env';
import type { AgentDetection } from './agent/agent-detection';
import { planAnswer, visiblePrompt } from './agent/prompt-answer';
import type { PromptOption, PromptOptions } from '../protocol/attach';
import { merge, noChange, type Change, type OpenedPane } from './change';
import { Publisher, type WorkspaceWatcher } from './publish';
import { MAX_STATUS_SEGMENTS, MAX_STATUS_TEXT_CHARS, MAX_WORKSPACES } from '../protocol/limits';

/** What the caller of `new`/`split` runs and where: its own cwd and environment unless overridden. */
export interface Launch {
  argv?: string[];
  cwd: string;
  env: Record<string, string>;
  /** Shown before the program's output: a restored pane's saved history. */
  preface?: string;
  /** A restored pane whose program survived: the socket of the holder to take it back from. */
  adopt?: string;
}

/** A pane to bring back after a restart at its old id (journal/ decides how it runs). */
export interface RestoringPane {
  id: PaneId;
  launch: Launch & { argv: string[] };
  /** What `list` shows it runs (a pane not restarted shows the program it ran before). */
  command: string[];
}

/** A workspace to bring back after a restart: its tabs as they were, ids, layouts and all. */
export interface RestoringWorkspace {
  name: string;
  size: Size;
  status: Record<string, string>;
  tabs: Array<{ id: number; layout: TabLayout; panes: RestoringPane[] }>;
  activeTab: number | undefined;
  next: { pane: PaneId; tab: number };
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

/** Hears of every change before anyone else does, and says when what it heard is on disk: the journal (issue 32). */
export interface ChangeRecorder {
  /** In the turn of the change, before its events and repaints. */
  record(change: Change, ws: Workspace): void;
  /** Resolves once every change recorded so far is on disk. */
  recorded(): Promise<void>;
}

/**
 * Every workspace of the server and the operations the router exposes. This is the one place that
 * starts and reaps panes, tiled or popup alike (one lifecycle: the same start, detection, events
 * and end; only the placement differs), and every operation publishes the change the workspace
 * reports, so the invariants hold for every client: a pane is in exactly one tab or is the popup,
 * an empty tab or workspace is removed, every pty follows its rect, and whoever watches hears of
 * every change.
 */
export class Workspaces {
  private readonly byName = new Map<string, Workspace>();
  private readonly publisher: Publisher;
  private recorder: ChangeRecorder | undefined;

  constructor(
    readonly settings: ServerSettings,
    bus: EventBus,
    private readonly detection: AgentDetection,
  ) {
    this.publisher = new Publisher(bus, (ws, id) => this.byName.get(ws)?.panes.has(id) ?? false);
  }

  /** Watch every workspace (attach sessions do); returns the way to stop. */
  watchAll(w: WorkspaceWatcher): () => void {
    return this.publisher.watch(w);
  }

  /** Record every change with `r` before it is published; returns the way to stop. */
  recordWith(r: ChangeRecorder): () => void {
    this.recorder = r;
    return () => {
      if (this.recorder === r) this.recorder = undefined;
    };
  }

  /** Resolves once every change so far is recorded on disk: a verb that changed structure answers then. */
  recorded(): Promise<void> {
    return this.recorder?.recorded() ?? Promise.resolve();
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

  /** A workspace not yet registered; refused when the server holds MAX_WORKSPACES already. */
  private unregistered(name: string): Workspace {
    validateName(name);
    if (this.byName.size >= MAX_WORKSPACES) {
      throw new FuxError(
        'PRECONDITION_FAILED',
        `the server holds ${this.byName.size} workspaces, the most it keeps; \`fux workspace kill NAME\` one first`,
      );
    }
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

  /** How many attached clients show a workspace (the attach hub tells): seeing is looking at its focused pane. */
  setViewers(name: string, n: number): void {
    const ws = this.byName.get(name);
    if (ws) this.publish(ws, ws.setViewers(n));
  }

  /** Whether someone looks at a pane now (see Workspace.lookedAt). */
  lookedAt(name: string, id: PaneId): boolean {
    return this.byName.get(name)?.lookedAt(id) ?? false;
  }

  /** Apply an operation's change: tell everyone, and drop a workspace that has no tab left. */
  private publish(ws: Workspace, change: Change): void {
    let c = change;
    if (change.closed.length > 0 && ws.tabs.length === 0) c = merge(c, this.drop(ws));
    this.recorder?.record(c, ws);
    this.publisher.publish(c);
  }

  /** A workspace with no tab left is gone; a popup over it goes with it (hung up, it ends as any pane does). */
  private drop(ws: Workspace): Change {
    if (this.byName.get(ws.name) !== ws) return noChange(ws.name);
    this.byName.delete(ws.name);
    for (const e of ws.panes.values()) e.pane.kill('SIGHUP');
    return { ...noChange(ws.name), gone: true };
  }

  /** `new`: a pane in the active tab, splitting the focused pane along its longer side. */
  open(wsName: string | undefined, launch: Launch): PaneEntry {
    return this.start(this.getOrCreate(wsName), launch, {});
  }

  /** `split`: the new pane right of (`row`) or below (`column`) the target, default the focused pane. */
  split(wsName: string | undefined, axis: Axis, targetId: PaneId | undefined, launch: Launch): PaneEntry {
    return this.start(this.getOrCreate(wsName), launch, { beside: targetId, axis });
  }

  /** `tab new`: a new tab with one pane, made active. */
  openTab(wsName: string | undefined, launch: Launch): PaneEntry {
    return this.start(this.getOrCreate(wsName), launch, { tab: true });
  }

  /**
   * Start a pane's program and place it: in a tab, or as the popup. A popup starts at its size
   * and works on the pane the user was in (a picker, `fux capture $FUX_PANE`), not on itself.
   */
  private start(ws: Workspace, launch: Launch, where: Where): PaneEntry {
    // A target that does not exist, or a second popup, is an error before anything starts.
    ws.check(where);
    const id = ws.allocatePaneId();
    const popup = 'popup' in where;
    const size = popup ? popupSize(ws.size, where.popup) : ws.size;
    const { pane, argv } = this.spawnPane(ws, id, launch, size, popup ? (ws.focused?.id ?? id) : id);
    this.byName.set(ws.name, ws);
    const { entry, change } = this.place(ws, id, pane, where, (placement) =>
      this.newEntry(ws, { id, placement, pane, command: argv, launch }),
    );
    this.watch(ws, entry);
    this.publish(ws, change);
    return entry;
  }

  /**
   * Place a started pane. The workspace refuses a placement before it changes anything, but the
   * program runs already: a refused one is ended, or it would run where no `list` shows it.
   */
  private place(
    ws: Workspace,
    id: PaneId,
    pane: Pane,
    where: Where,
    build: (placement: Placement) => PaneEntry,
  ): { entry: PaneEntry; change: Change } {
    let built: PaneEntry | undefined;
    try {
      return ws.add(id, (placement) => (built = build(placement)), where);
    } catch (err) {
      built?.agent.dispose();
      pane.kill('SIGKILL');
      pane.dispose();
      throw err;
    }
  }

  /** A started pane's entry where it shows: its agent detector watching it, what it was started with. */
  private newEntry(
    ws: Workspace,
    p: { id: PaneId; placement: Placement; pane: Pane; command: string[]; launch: Launch },
    restored = false,
  ): PaneEntry {
    return {
      id: p.id,
      placement: p.placement,
      pane: p.pane,
      command: p.command,
      agent: this.detection.watch(p.pane, (moved) => this.publish(ws, ws.agentMoved(p.id, moved))),
      unseen: false,
      launch: { env: p.launch.env, at: Date.now() },
      restored,
      survived: restored && p.launch.adopt !== undefined,
    };
  }

  /**
   * Bring back a workspace saved before a restart: its tabs, layouts, focus and zoom as they were,
   * each pane started at its old id and size and showing its saved history first. A workspace of
   * that name already here is a CONFLICT; a pane that cannot start undoes the whole workspace.
   */
  restore(saved: RestoringWorkspace): Workspace {
    if (this.byName.has(saved.name)) {
      throw new FuxError('CONFLICT', `workspace ${saved.name} already exists`);
    }
    const ws = this.unregistered(saved.name);
    ws.size = { ...saved.size };
    const started: PaneEntry[] = [];
    try {
      for (const t of saved.tabs) {
        ws.restoreTab(t.id, t.layout, (tab, rects) =>
          t.panes.map((p) => {
            const size = rects.get(p.id) ?? ws.size;
            const { pane } = this.spawnPane(ws, p.id, p.launch, size);
            const entry = this.newEntry(
              ws,
              { id: p.id, placement: { kind: 'tiled', tab }, pane, command: p.command, launch: p.launch },
              true,
            );
            started.push(entry);
            return entry;
          }),
        );
      }
    } catch (err) {
      for (const e of started) {
        e.agent.dispose();
        e.pane.kill('SIGKILL');
        e.pane.dispose();
      }
      throw err;
    }
    ws.activeTab = ws.tabs.find((t) => t.id === saved.activeTab) ?? ws.tabs[0];
    // A journal written before segments were bounded may hold more than a workspace keeps now.
    for (const [k, v] of Object.entries(saved.status).slice(0, MAX_STATUS_SEGMENTS))
      ws.status.set(k, v.slice(0, MAX_STATUS_TEXT_CHARS));
    ws.reserveIds(saved.next);
    this.byName.set(ws.name, ws);
    const opened: OpenedPane[] = [];
    for (const e of started) {
      this.watch(ws, e);
      opened.push({ id: e.id, tab: tabOf(e, ws.name).id, command: e.command, pid: e.pane.pid });
    }
    this.publish(ws, { ...noChange(ws.name), opened, layout: true, tabs: true, status: true });
    return ws;
  }

  /**
   * `popup`: a pane over the workspace (of an existing workspace: a popup opens none) until its
   * program exits; one at a time per workspace. `exited` settles with the exit status when the
   * program ends (or is killed).
   */
  openPopup(
    wsName: string | undefined,
    launch: Launch,
    want: Size | undefined,
  ): { entry: PaneEntry; exited: Promise<PaneExit> } {
    const entry = this.start(this.get(wsName), launch, { popup: want });
    // The program cannot have ended yet (its exit comes from the event loop), and every listener
    // of the exit hears it, though the first (watch's) disposes of the pane.
    return { entry, exited: new Promise((resolve) => entry.pane.once('exit', resolve)) };
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
    const env = fuxEnv(launch.env, { socket: this.settings.socket, workspace: ws.name, pane: fuxPane });
    try {
      const pane = Pane.spawn({
        argv,
        cwd: launch.cwd,
        env,
        cols: size.cols,
        rows: size.rows,
        scrollback: this.settings.scrollback,
        preface: launch.preface,
        holding: { dir: holderDir(this.settings.socket), place: { workspace: ws.name, id } },
        adopt: launch.adopt,
      });
      return { pane, argv };
    } catch (err) {
      throw new FuxError('BAD_REQUEST', (err as Error).message);
    }
  }

  /** A pane's life after its start, the same for every placement: output, title, bell, and its end. */
  private watch(ws: Workspace, e: PaneEntry): void {
    const { id, pane } = e;
    pane.on('nudge', () => this.publisher.nudge(ws.name, id));
    pane.on('output', () => this.publisher.output(ws.name, id));
    pane.on('title', (title) => this.publish(ws, ws.retitle(id, title)));
    pane.on('bell', () => this.publisher.bell(ws.name, id));
    pane.on('exit', (exit) => {
      // Its process ended: out of the layout (if a kill has not taken it out already), then the news.
      const removed = ws.remove(id);
      const last = e.agent.current;
      ws.reached.closed(id, exit, { agent: last.agent ?? null, state: last.state }, Date.now());
      e.agent.dispose();
      pane.dispose();
      this.publish(ws, merge(removed, { ...noChange(ws.name), exited: [{ id, exit }] }));
    });
  }

  focus(wsName: string | undefined, target: PaneId | Direction): PaneId {
    const ws = this.get(wsName);
    this.publish(ws, ws.focus(target));
    return ws.focused!.id;
  }

  zoom(wsName: string | undefined, id: PaneId | undefined): { id: PaneId; zoomed: boolean } {
    const ws = this.get(wsName);
    const change = ws.zoom(id);
    this.publish(ws, change);
    return change.zoom!;
  }

  /** Close a pane now and end its process: SIGHUP as a closed terminal would, SIGKILL if it lingers. */
  kill(wsName: string | undefined, id: PaneId): void {
    const ws = this.get(wsName);
    const pane = ws.entry(id).pane;
    this.publish(ws, ws.remove(id));
    pane.kill('SIGHUP');
    const timer = setTimeout(() => {
      if (!pane.exit) pane.kill('SIGKILL');
    }, this.settings.killGraceMs);
    timer.unref();
    pane.on('exit', () => clearTimeout(timer));
  }

  resize(wsName: string | undefined, id: PaneId, delta: number): boolean {
    const ws = this.get(wsName);
    const change = ws.resizePane(id, delta);
    this.publish(ws, change);
    return change.layout;
  }

  sendKeys(wsName: string | undefined, id: PaneId, keys: string[], literal: boolean): number {
    const e = this.get(wsName).entry(id);
    const appCursor = e.pane.terminal.modes.applicationCursorKeysMode;
    let bytes: string;
    try {
      bytes = encodeKeys(keys, { literal, appCursor });
    } catch (err) {
      if (err instanceof KeyNameError) throw new FuxError('BAD_REQUEST', err.message);
      throw err;
    }
    e.pane.write(bytes);
    return Buffer.byteLength(bytes);
  }

  /** The options of the prompt a blocked pane shows (refused when it shows none). */
  prompt(wsName: string | undefined, id: PaneId): PromptOptions {
    const ws = this.get(wsName);
    const prompt = visiblePrompt(ws.entry(id), ws.name);
    return { rule: prompt.rule, options: [...prompt.options] };
  }

  /** Choose an option of a blocked pane's visible prompt, typing its keys with the one key encoder. */
  answer(
    wsName: string | undefined,
    id: PaneId,
    choice: string,
  ): { option: PromptOption; keys: string[]; bytes: number } {
    const ws = this.get(wsName);
    const plan = planAnswer(ws.entry(id), ws.name, choice);
    return { ...plan, bytes: this.sendKeys(ws.name, id, plan.keys, false) };
  }

  capture(wsName: string | undefined, id: PaneId, attrs: boolean, scrollback: number): CaptureResult {
    return this.get(wsName).entry(id).pane.capture({ attrs, scrollback });
  }

  /** `tab next|prev|N`: make a tab active. Returns its number (1-based). */
  selectTab(wsName: string | undefined, which: 'next' | 'prev' | number): number {
    const ws = this.get(wsName);
    this.publish(ws, ws.selectTab(which));
    return ws.activeTab ? ws.tabNumber(ws.activeTab) : 0;
  }

  setStatus(wsName: string | undefined, segment: string, text: string): void {
    const ws = this.get(wsName);
    this.publish(ws, ws.setStatus(segment, text));
  }

  resizeWorkspace(wsName: string | undefined, size: Size): void {
    const ws = this.get(wsName);
    this.publish(ws, ws.resize(size));
  }

  /** `workspace kill`: end every pane of it (the popup with the last tile); the workspace is gone at once. Returns how many tiles it had. */
  killWorkspace(name: string): number {
    const ws = this.get(name);
    const ids = ws.tiles().map((e) => e.id);
    for (const id of ids) this.kill(name, id);
    this.publisher.publish(this.drop(ws));
    return ids.length;
  }

  /** Server shutdown: every pane gets SIGHUP, as when a terminal closes. */
  hangUpAll(): void {
    for (const ws of this.byName.values()) {
      for (const e of ws.panes.values()) e.pane.kill('SIGHUP');
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
