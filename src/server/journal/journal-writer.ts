import type { IMarker } from '@xterm/headless';
import type { WorkspaceWatcher } from '../publish';
import type { Workspaces } from '../workspaces';
import { encodedJson, jsonPieces, writeAtomically, type WriteOps } from './journal-file';
import { historyText, snapshot, type AgentSessions } from './snapshot';
import { ChangeLog } from './change-log';
import { JournalRecorder } from './recorder';
import type { PaneId } from '../layout';
import type { PaneEntry, Workspace } from '../workspace';
import { version } from '../version';

/**
 * A pane that floods (it scrolled its saved lines away since they were rendered, and printed
 * again since the last write) is rendered again at most this often, and at the first write after
 * it stops. Rendering its last lines every few seconds made megabytes of strings a write, which
 * raised 40 flooding panes' resident set by some 60 MiB (B10), for lines the flood replaced before
 * anyone could need them; at worst a crash now restores a flooding pane's lines of 30 s before.
 */
const FLOOD_RENDER_MS = 30_000;

/** A pane's history as last rendered. */
interface Rendered {
  lines: number;
  text: string;
  /** `text` as JSON, made at its first write and kept for the next ones. */
  json: Uint8Array | undefined;
  /** When it was rendered (Date.now()). */
  at: number;
  /** The row the cursor was on then, on the normal screen (xterm moves it as rows scroll away). */
  mark: IMarker | undefined;
}

export interface JournalLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface WriterOptions {
  file: string;
  /** The change log's files, emptied at start: what they held is in `file` (or kept aside). */
  changes: readonly [string, string];
  /** The last change record `file` holds. */
  seq: number;
  socket: string;
  workspaces: Workspaces;
  sessions: AgentSessions;
  serverEnv: Readonly<Record<string, string | undefined>>;
  /** `restore_history`, read at each write so a config change takes effect. */
  historyLines: () => number;
  log: JournalLog;
  ops?: WriteOps;
  /** After a change of structure, focus, title or agent state: at most one write per this long. */
  changeMs?: number;
  /** After output (history, cwd): at most one write per this long. */
  outputMs?: number;
}

/**
 * Keeps the journal up to date without touching the output path: a change of structure is in the
 * change log before anyone hears of it (recorder.ts); any change of the workspaces (a split, a
 * focus, a title, an agent's state) schedules a write of the whole journal within `changeMs`;
 * output only sets a flag, which a slow timer turns into a write every `outputMs` (history and cwd
 * change with output). One write at a time; writes that fail (a full disk) are logged once and
 * retried on the next change.
 */
export class JournalWriter {
  private readonly changeMs: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly slow: NodeJS.Timeout;
  private outputSince = false;
  /** Panes that printed since their history was last rendered, by workspace. */
  private dirty = new Map<string, Set<PaneId>>();
  /** Each pane's history as last rendered. */
  private readonly histories = new WeakMap<PaneEntry, Rendered>();
  /**
   * Flooding panes whose rendering waits (see FLOOD_RENDER_MS), by workspace. Ids, not entries: a
   * pane closed meanwhile must not be kept alive (its terminal and history, ~1 MiB after a flood)
   * until the next write, when the server gives memory back after closes (src/server/memory/).
   */
  private deferred = new Map<string, Set<PaneId>>();
  private writing: Promise<void> | undefined;
  private again = false;
  private lastError: string | undefined;
  private closed = false;
  private readonly unwatch: () => void;
  private readonly changes: ChangeLog;
  private readonly recorder: JournalRecorder;
  private readonly unrecord: () => void;

  constructor(private readonly o: WriterOptions) {
    this.changeMs = o.changeMs ?? 1000;
    this.changes = new ChangeLog(o.changes, o.seq, o.log);
    this.recorder = new JournalRecorder({
      changes: this.changes,
      socket: o.socket,
      serverEnv: o.serverEnv,
      sessions: o.sessions,
    });
    this.unrecord = o.workspaces.recordWith(this.recorder);
    const watcher: WorkspaceWatcher = {
      changed: () => this.soon(),
      output: (workspace, id) => {
        this.outputSince = true;
        addPane(this.dirty, workspace, id);
      },
      bell: () => undefined,
    };
    this.unwatch = o.workspaces.watchAll(watcher);
    this.slow = setInterval(() => {
      if (this.outputSince || this.deferred.size > 0) this.soon();
    }, o.outputMs ?? 5000);
    this.slow.unref();
  }

  /** Record that workspace `name`, which the last server had, is not here (it did not come back). */
  forget(name: string): void {
    this.recorder.gone(name, true);
  }

  /** Write within `changeMs` (a write already due takes this change along). */
  soon(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write(false);
    }, this.changeMs);
    this.timer.unref();
  }

  /**
   * Render the history of every pane that printed since its last rendering (or was never
   * rendered), but a flooding one's only every FLOOD_RENDER_MS and once it stops; one pane per
   * turn of the event loop, so that a snapshot of many panes never holds up the others' output
   * for long. The last write (`now`) renders every pane that needs it, at once.
   */
  private async renderHistories(now: boolean): Promise<void> {
    const lines = this.o.historyLines();
    const dirty = this.dirty;
    const deferred = this.deferred;
    this.dirty = new Map();
    this.deferred = new Map();
    const at = Date.now();
    for (const ws of this.o.workspaces.all()) {
      for (const e of ws.tiles()) {
        const kept = this.histories.get(e);
        const printed = dirty.get(ws.name)?.has(e.id) ?? false;
        if (kept?.lines === lines && !printed && !deferred.get(ws.name)?.has(e.id)) continue;
        if (!ws.panes.has(e.id)) continue; // closed while an earlier pane was rendered
        if (
          !now &&
          kept?.lines === lines &&
          printed &&
          at - kept.at < FLOOD_RENDER_MS &&
          scrolledAway(e, kept)
        ) {
          addPane(this.deferred, ws.name, e.id);
          continue;
        }
        kept?.mark?.dispose();
        const { terminal } = e.pane;
        const mark = terminal.buffer.active.type === 'normal' ? terminal.registerMarker(0) : undefined;
        this.histories.set(e, { lines, text: historyText(e, lines), json: undefined, at, mark });
        if (!now) await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** The JSON of the panes' histories by their text, each made once per rendering (when first asked). */
  private encodedHistories(workspaces: readonly Workspace[]): (text: string) => Uint8Array | undefined {
    const byText = new Map<string, Rendered>();
    for (const ws of workspaces) {
      for (const e of ws.tiles()) {
        const kept = this.histories.get(e);
        if (kept !== undefined) byText.set(kept.text, kept);
      }
    }
    return (text) => {
      const kept = byText.get(text);
      if (kept === undefined) return undefined;
      kept.json ??= encodedJson(kept.text);
      return kept.json;
    };
  }

  /** The last write, marked closed: a clean stop. No writes after it, nor records. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.slow);
    this.unwatch();
    this.unrecord();
    await this.writing;
    await this.write(true);
    await this.changes.close();
  }

  private async write(closed: boolean): Promise<void> {
    if (this.writing) {
      this.again = true;
      return this.writing;
    }
    this.writing = this.writeOnce(closed);
    try {
      await this.writing;
    } finally {
      this.writing = undefined;
    }
    if (this.again && !this.closed) {
      this.again = false;
      await this.write(false);
    }
  }

  private async writeOnce(closed: boolean): Promise<void> {
    this.outputSince = false;
    await this.renderHistories(closed);
    const all = this.o.workspaces.all();
    this.o.sessions.refresh(all.flatMap((ws) => ws.tiles()));
    // In the same turn as the snapshot: it holds every change recorded up to here.
    const seq = this.changes.mark();
    const journal = snapshot(all, {
      fux: version,
      socket: this.o.socket,
      serverEnv: this.o.serverEnv,
      history: (e) => this.histories.get(e)?.text ?? '',
      sessions: this.o.sessions,
      closed,
      now: Date.now(),
      seq,
    });
    try {
      await writeAtomically(this.o.file, jsonPieces(journal, this.encodedHistories(all)), this.o.ops);
      this.changes.covered(seq);
      if (this.lastError !== undefined) this.o.log.info(`journal: writing ${this.o.file} again`);
      this.lastError = undefined;
    } catch (err) {
      const message = (err as Error).message;
      // A full disk fails every write alike: say so once, not every few seconds.
      if (message !== this.lastError) {
        this.o.log.warn(
          `journal: cannot write ${this.o.file} (${message}); the server carries on, and a restart restores the last journal written`,
        );
      }
      this.lastError = message;
    }
  }
}

/**
 * Whether the pane scrolled at least the rendered lines away since they were rendered, on the
 * normal screen: its mark is that many rows above the cursor, or gone with the rows xterm let go.
 */
function scrolledAway(e: PaneEntry, kept: Rendered): boolean {
  const { buffer } = e.pane.terminal;
  if (kept.mark === undefined || buffer.active.type !== 'normal') return false;
  if (kept.mark.isDisposed || kept.mark.line < 0) return true;
  return buffer.normal.baseY + buffer.normal.cursorY - kept.mark.line >= kept.lines;
}

/** Add pane `id` of `workspace` to a map of pane ids by workspace. */
function addPane(panes: Map<string, Set<PaneId>>, workspace: string, id: PaneId): void {
  let ids = panes.get(workspace);
  if (!ids) panes.set(workspace, (ids = new Set()));
  ids.add(id);
}
