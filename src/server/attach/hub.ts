import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { EventBus } from '../events';
import type { FuxConfig } from '../config';
import { FuxError } from '../errors';
import { fuxEnv } from '../../protocol/env';
import type { Launch, Workspaces } from '../workspaces';
import type { Workspace } from '../workspace';
import { AttachSession } from './session';
import { buildView } from './view';
import type {
  AttachAction,
  AttachFrame,
  AttachHistory,
  AttachView,
  PromptOptions,
} from '../../protocol/attach';
import type { ProcedureCall } from '../../protocol/bindings';
import { callInput } from './bindable';
import { paneHistory } from './history';
import { PaneCheckouts } from '../worktree/pane-checkouts';

/** A control procedure to call for a key, by its router path, with its input. */
export interface KeyCall {
  path: ProcedureCall['call'];
  input: Record<string, unknown>;
}

export interface AttachRequest {
  workspace: string | undefined;
  cols: number;
  rows: number;
  launch: Launch;
  /** The remote peer's endpoint id; null for a local client. */
  remote: string | null;
}

/** How the hub reaches the rest of the server. */
export interface HubDeps {
  workspaces: Workspaces;
  bus: EventBus;
  config(): FuxConfig;
  log(message: string): void;
}

/**
 * Every attached client. It creates the workspace an attach names (with one pane running the
 * default command), keeps each session told of what changed, applies the last client's size to
 * the workspace (the last resize wins, and every pty follows its rect; when that client leaves,
 * the size of the one sized last among those left), and performs the actions a client's keys and
 * clicks ask for.
 */
export class AttachHub {
  private readonly sessions = new Map<string, AttachSession>();
  private readonly stopWatching: () => void;
  private readonly checkouts: PaneCheckouts;
  /** When each session last set its workspace's size (attach, resize, switch), in order: who wins. */
  private readonly sizedAt = new Map<string, number>();
  private sizings = 0;
  /** The workspaces as of the last change, to tell when one opened or closed. */
  private workspaceNames: string[];

  constructor(private readonly deps: HubDeps) {
    this.checkouts = new PaneCheckouts(deps.bus, deps.workspaces, (ws) => this.viewChangedFor(ws));
    this.workspaceNames = deps.workspaces.all().map((w) => w.name);
    this.stopWatching = deps.workspaces.watchAll({
      changed: (ws) => {
        // Every client's view lists the workspaces: one opening or closing is news to all.
        const names = deps.workspaces.all().map((w) => w.name);
        const listed = names.join('\n') !== this.workspaceNames.join('\n');
        this.workspaceNames = names;
        for (const s of this.sessions.values()) if (listed || s.workspace === ws) s.markView();
      },
      output: (ws, id) => {
        for (const s of this.sessions.values()) if (s.workspace === ws) s.markPane(id);
      },
      bell: (ws, id) => {
        for (const s of this.sessions.values()) if (s.workspace === ws) s.markBell(id);
      },
    });
  }

  attach(req: AttachRequest): AttachSession {
    const { workspaces } = this.deps;
    const name = workspaces.resolveName(req.workspace);
    if (!workspaces.find(name)) workspaces.open(name, { ...req.launch, argv: undefined });
    const id = randomBytes(6).toString('hex');
    const session = new AttachSession(
      id,
      name,
      req.remote,
      { cols: req.cols, rows: req.rows },
      req.launch.env,
    );
    this.sessions.set(id, session);
    this.applySize(session);
    this.deps.bus.emit({
      type: 'client.attached',
      workspace: name,
      client: id,
      cols: req.cols,
      rows: req.rows,
      remote: req.remote,
    });
    this.countViewers(name);
    this.viewChangedFor(name);
    return session;
  }

  detach(session: AttachSession, reason: string): void {
    if (!this.sessions.delete(session.id)) return;
    this.sizedAt.delete(session.id);
    this.followRemaining(session.workspace);
    this.deps.bus.emit({ type: 'client.detached', workspace: session.workspace, client: session.id, reason });
    this.countViewers(session.workspace);
    this.viewChangedFor(session.workspace);
  }

  session(client: string): AttachSession {
    const s = this.sessions.get(client);
    if (!s) throw new FuxError('NOT_FOUND', `no attached client ${client}; attach again with \`fux\``);
    return s;
  }

  /** The frame that brings `session` up to date, or undefined; an `end` frame when its workspace is gone. */
  frame(session: AttachSession): AttachFrame | undefined {
    const ws = this.deps.workspaces.find(session.workspace);
    if (!ws)
      return {
        seq: -1,
        end: { reason: 'workspace-closed', message: `workspace ${session.workspace} closed` },
      };
    const view = (): AttachView =>
      buildView(ws, {
        workspaces: this.deps.workspaces.all().map((w) => w.name),
        config: this.deps.config(),
        clients: this.clientsOf(ws.name),
        checkout: (e) => this.checkouts.of(e.pane),
      });
    return session.frame(ws, view);
  }

  resize(client: string, cols: number, rows: number): void {
    const s = this.session(client);
    s.size = { cols, rows };
    if (this.deps.workspaces.find(s.workspace)) this.applySize(s);
  }

  /** Keys typed in the client, for the focused pane or the popup. */
  input(client: string, pane: number | undefined, data: string, binary: boolean): void {
    const ws = this.workspaceOf(this.session(client));
    // Typing goes where the server's focus is, not where the client last saw it: keys typed right
    // after C-a h reach the pane that is focused now, whether or not that frame has arrived.
    const target = pane === undefined ? (ws.popup?.pane ?? ws.focused?.pane) : ws.entry(pane).pane;
    if (!target) throw new FuxError('PRECONDITION_FAILED', `workspace ${ws.name} has no pane to type into`);
    target.write(binary ? Buffer.from(data, 'latin1') : data);
  }

  /**
   * A key binding or a click. A key or click bound to a procedure (a click is a `focus` or a
   * `tab.select` call, as a key's) comes back as the call to make, its input filled in from this
   * client's context; the caller makes it through the router, so it is checked and performed as
   * the same call from the command line is. Undefined: done here, or nothing to do.
   */
  action(client: string, action: AttachAction): KeyCall | undefined {
    const s = this.session(client);
    const ws = this.workspaceOf(s);
    switch (action.kind) {
      case 'call':
        return this.keyCall(s, ws, { call: action.call, input: action.input });
      case 'switch-workspace':
        this.switchWorkspace(s, action.workspace);
        return undefined;
      case 'binding':
        return this.runBinding(s, ws, action.key);
    }
  }

  private keyCall(s: AttachSession, ws: Workspace, call: ProcedureCall): KeyCall | undefined {
    // The popup's call is not awaited (it ends when the program does): a refusal is told now.
    if (call.call === 'popup') ws.assertNoPopup();
    const launch = this.launchIn(s, ws);
    const input = callInput(call, {
      workspace: ws.name,
      focused: ws.focused?.id,
      cwd: launch.cwd,
      env: launch.env,
    });
    return input === undefined ? undefined : { path: call.call, input };
  }

  /** The options of a blocked pane's prompt (default: the focused one), for the answer picker. */
  prompt(client: string, pane: number | undefined): PromptOptions {
    const ws = this.workspaceOf(this.session(client));
    const id = pane ?? ws.focused?.id;
    if (id === undefined)
      throw new FuxError('PRECONDITION_FAILED', `workspace ${ws.name} has no pane to answer`);
    return this.deps.workspaces.prompt(ws.name, id);
  }

  /** History and screen of a pane as runs, for copy mode. */
  history(client: string, pane: number, lines: number): Promise<AttachHistory> {
    const session = this.session(client);
    const ws = this.workspaceOf(session);
    return paneHistory(ws.entry(pane).pane, lines, session.styleTable);
  }

  /** The config changed: clients get the new keys with their next frame. */
  configChanged(): void {
    for (const s of this.sessions.values()) s.markView();
  }

  close(): void {
    this.stopWatching();
    this.checkouts.dispose();
  }

  /**
   * A new pane from a key starts where the focused pane's program works now, as tmux's do, with
   * the environment the client attached with (its DISPLAY, SSH_AUTH_SOCK…; for a remote client,
   * the server's own, since the attach router does not take a peer's).
   */
  private launchIn(s: AttachSession, ws: Workspace): Launch {
    return { cwd: ws.focused?.pane.currentCwd() ?? process.cwd(), env: { ...s.env } };
  }

  private switchWorkspace(s: AttachSession, name: string): void {
    const { workspaces } = this.deps;
    if (!workspaces.find(name))
      throw new FuxError('NOT_FOUND', `no workspace ${name}; \`fux workspace list\` shows them`);
    const from = s.workspace;
    s.workspace = name;
    s.markReset();
    this.applySize(s);
    this.followRemaining(from);
    this.countViewers(from);
    this.countViewers(name);
    this.viewChangedFor(from);
    this.viewChangedFor(name);
  }

  /** A key bound to an external command: run it with the pane's context, in a popup (a `popup` call) if asked. */
  private runBinding(s: AttachSession, ws: Workspace, key: string): KeyCall | undefined {
    const binding = this.deps.config().bindings[key];
    if (binding === undefined || typeof binding === 'string' || 'call' in binding) {
      throw new FuxError('NOT_FOUND', `no command is bound to ${key}; docs/config.md shows how to bind one`);
    }
    const focused = ws.focused;
    const launch = this.launchIn(s, ws);
    const env = fuxEnv(
      launch.env,
      { socket: this.deps.workspaces.settings.socket, workspace: ws.name, pane: focused?.id },
      { FUX_CWD: launch.cwd },
    );
    const argv = ['/bin/sh', '-c', binding.command];
    if (binding.popup) {
      // The popup pane sets FUX_* itself; FUX_CWD and the focused pane come with the environment.
      return this.keyCall(s, ws, { call: 'popup', input: { argv, cwd: launch.cwd, env } });
    }
    const child = spawn(argv[0]!, argv.slice(1), { cwd: launch.cwd, env, stdio: 'ignore', detached: true });
    child.on('error', (err) => this.deps.log(`binding ${key}: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (code !== 0) this.deps.log(`binding ${key}: \`${binding.command}\` exited with ${code ?? signal}`);
    });
    child.unref();
    return undefined;
  }

  private workspaceOf(s: AttachSession): Workspace {
    const ws = this.deps.workspaces.find(s.workspace);
    if (!ws) throw new FuxError('NOT_FOUND', `workspace ${s.workspace} closed`);
    return ws;
  }

  /** A session's size becomes its workspace's: it is now the one sized last. */
  private applySize(s: AttachSession): void {
    this.sizedAt.set(s.id, ++this.sizings);
    this.deps.workspaces.resizeWorkspace(s.workspace, s.size);
  }

  /**
   * A client left a workspace: the size follows the one sized last among those still there, so a
   * smaller terminal that detached does not keep the others' panes small (nor the journal's).
   */
  private followRemaining(ws: string): void {
    let last: AttachSession | undefined;
    for (const s of this.sessions.values()) {
      if (s.workspace !== ws) continue;
      if (last === undefined || (this.sizedAt.get(s.id) ?? 0) > (this.sizedAt.get(last.id) ?? 0)) last = s;
    }
    if (last !== undefined && this.deps.workspaces.find(ws))
      this.deps.workspaces.resizeWorkspace(ws, last.size);
  }

  private clientsOf(ws: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.workspace === ws) n++;
    return n;
  }

  /** Tell the workspace how many clients show it: what they look at is seen, and not notified. */
  private countViewers(ws: string): void {
    this.deps.workspaces.setViewers(ws, this.clientsOf(ws));
  }

  private viewChangedFor(ws: string): void {
    for (const s of this.sessions.values()) if (s.workspace === ws) s.markView();
  }
}
