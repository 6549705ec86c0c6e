/**
 * Surviving a restart (issue 12): the server journals its workspaces as they change, and the next
 * server brings them back when the last one did not stop cleanly (or always, or never, as config
 * `restore` says). A journal not restored at start is kept for `fux restore`. Nothing here is
 * fatal: a journal that cannot be read is moved aside, one that cannot be written is logged.
 */
import * as fs from 'node:fs';
import type { EventBus } from '../events';
import type { FuxConfig } from '../config';
import type { Workspaces } from '../workspaces';
import { OneTimeNotice } from '../notice';
import { FuxError } from '../errors';
import {
  journalPaths,
  jsonPieces,
  keepAsPrevious,
  readJournal,
  readLiveJournal,
  writeAtomicallySync,
  type JournalPaths,
  type WriteOps,
} from './journal-file';
import { JournalWriter, type JournalLog } from './journal-writer';
import { applyRestore, paneReport, type RestoreReport, type RestoreTrigger } from './restore';
import { planRestore, type WorkspacePlan } from './restore-plan';
import { AgentSessions } from './snapshot';
import type { Journal } from './schema';
import type { RestorePlanView } from './protocol';

export interface JournalServiceOptions {
  stateDir: string;
  socket: string;
  workspaces: Workspaces;
  bus: EventBus;
  config: () => FuxConfig;
  log: JournalLog;
  ops?: WriteOps;
  /**
   * The socket of a holder that kept a pane running while no server did (src/server/holder/),
   * claimed by the restore at boot for the pane it brings back.
   */
  survivor?: (workspace: string, id: number) => string | undefined;
}

export class JournalService {
  private readonly paths: JournalPaths;
  private readonly sessions = new AgentSessions();
  private writer: JournalWriter | undefined;
  /** A journal that could not be used, until a client has been told. */
  private readonly problem = new OneTimeNotice();

  constructor(private readonly o: JournalServiceOptions) {
    this.paths = journalPaths(o.stateDir, o.socket);
  }

  /**
   * Read the journal left by the last server (its change log replayed) and restore it or keep it
   * for `fux restore`, then start journaling. Called once this server holds the socket: one that
   * lost a start race starts nothing.
   */
  boot(): void {
    const o = this.o;
    const found = readLiveJournal(this.paths, o.socket);
    const problem = found.kind === 'none' ? undefined : found.problem;
    if (problem !== undefined) {
      o.log.warn(`restore: ${problem}`);
      this.problem.set(`restore: ${problem}`);
    }
    const journal = found.kind === 'ok' ? found.journal : undefined;
    const trigger = journal && this.autoRestore(journal);
    // Kept for `fux restore`, and this server journals afresh; or restored, and what the change
    // log added goes into the journal itself: the change log starts empty either way.
    if (journal && !trigger) {
      if (this.keep(journal)) fs.rmSync(this.paths.file, { force: true });
    } else if (found.kind === 'ok' && found.replayed) this.settle(found.journal);
    const writer = new JournalWriter({
      file: this.paths.file,
      changes: this.paths.changes,
      // Whatever journal is left on disk holds no record this server's will be taken for.
      seq: journal?.seq ?? 0,
      socket: o.socket,
      workspaces: o.workspaces,
      sessions: this.sessions,
      serverEnv: process.env,
      historyLines: () => o.config().restore_history,
      log: o.log,
      ops: o.ops,
    });
    this.writer = writer;
    if (!journal || !trigger) return;
    const failed = this.restore(journal, trigger, o.survivor).filter((r) => !r.restored);
    // A workspace that could not come back stays in a kept journal for `fux restore` to retry,
    // and leaves the live one.
    if (failed.length > 0) this.keep(journal);
    for (const r of failed) writer.forget(r.workspace);
  }

  /** Keep `journal` for `fux restore`; a failure is logged (there is then nothing to restore by hand). */
  private keep(journal: Journal): boolean {
    try {
      keepAsPrevious(this.paths, journal);
      return true;
    } catch (err) {
      this.o.log.warn(
        `restore: cannot keep the journal in ${this.paths.previous} (${(err as Error).message})`,
      );
      return false;
    }
  }

  /** Write the journal with its change log replayed; a failure is logged and the restore goes on. */
  private settle(journal: Journal): void {
    try {
      writeAtomicallySync(this.paths.file, jsonPieces(journal));
    } catch (err) {
      this.o.log.warn(
        `journal: cannot write ${this.paths.file} (${(err as Error).message}); the changes its change log held are lost at the next crash`,
      );
    }
  }

  /** Why the journal found at start restores by itself, if it does. */
  private autoRestore(journal: Journal): RestoreTrigger | undefined {
    const policy = this.o.config().restore;
    if (policy === 'always') return 'always';
    if (policy === 'crash' && !journal.closed) return 'crash';
    return undefined;
  }

  private plan(journal: Journal, survivor?: JournalServiceOptions['survivor']): WorkspacePlan[] {
    return planRestore(journal, {
      survivor,
      skip: this.o.config().restore_skip,
      serverEnv: process.env,
      exists: (name) => this.o.workspaces.find(name) !== undefined,
      now: new Date(),
    });
  }

  private restore(
    journal: Journal,
    trigger: RestoreTrigger,
    survivor?: JournalServiceOptions['survivor'],
  ): RestoreReport[] {
    const started = performance.now();
    const reports = applyRestore(this.plan(journal, survivor), {
      workspaces: this.o.workspaces,
      bus: this.o.bus,
      sessions: this.sessions,
      trigger,
      savedAt: journal.savedAt,
    });
    const ms = (performance.now() - started).toFixed(0);
    this.o.log.info(
      `restore (${trigger}): ${reports.length} workspaces from ${new Date(journal.savedAt).toISOString()} in ${ms} ms`,
    );
    for (const r of reports) {
      const panes = r.panes.map((p) => `${p.id} ${p.how}${p.reason ? ` (${p.reason})` : ''}`).join(', ');
      this.o.log.info(
        `restore (${trigger}): workspace ${r.workspace} ${r.restored ? `came back: ${panes}` : `did not come back: ${r.reason}`}`,
      );
    }
    return reports;
  }

  /** The kept journal (`fux restore` brings it back), if any; a bad one is moved aside and told. */
  private previous(): Journal | undefined {
    const found = readJournal(this.paths.previous, this.o.socket);
    if (found.kind === 'bad') {
      this.o.log.warn(`restore: ${found.problem}`);
      throw new FuxError('PRECONDITION_FAILED', `${found.problem}; there is nothing left to restore`);
    }
    return found.kind === 'ok' ? found.journal : undefined;
  }

  /** `fux restore --list / --dry-run`: what `fux restore` would bring back, and how. */
  view(): RestorePlanView {
    const journal = this.previous();
    if (!journal) return { file: null, savedAt: null, workspaces: [] };
    return {
      file: this.paths.previous,
      savedAt: journal.savedAt,
      workspaces: this.plan(journal).map((w) => ({
        workspace: w.saved.name,
        restored: w.restored,
        reason: w.reason,
        saved: w.saved.panes.map((p) => ({
          id: p.id,
          tab: w.saved.tabs.findIndex((t) => t.id === p.tab) + 1,
          command: p.argv,
          cwd: p.cwd,
          agent: p.agent,
          title: p.title,
          lines: p.history ? p.history.split('\n').length : 0,
        })),
        panes: w.panes.map(paneReport),
      })),
    };
  }

  /** `fux restore`: bring back the kept journal's workspaces (those whose names are free). */
  restoreKept(): RestoreReport[] {
    const journal = this.previous();
    if (!journal) return [];
    const reports = this.restore(journal, 'manual');
    // What came back is in the live journal now; what did not stays kept for another try.
    const left = journal.workspaces.filter((w) => !reports.some((r) => r.workspace === w.name && r.restored));
    if (left.length === 0) fs.rmSync(this.paths.previous, { force: true });
    return reports;
  }

  /** The journal's problem once: the first client to ask prints it (with the config's, if any). */
  takeProblem(): string | undefined {
    return this.problem.take();
  }

  /** A clean stop: the last journal, marked closed (restored at the next start only with `always`). */
  async close(): Promise<void> {
    await this.writer?.close();
  }
}
