/**
 * The journal's format: what a server writes of its workspaces so that the next one can bring them
 * back after a crash. Checked with zod when read, so a damaged or hand-edited file is a clear
 * "moved aside" and never a half-restored session. A change of shape bumps JOURNAL_VERSION: a
 * journal of another version is moved aside rather than guessed at.
 */
import { z } from 'zod';
import { agentState } from '../../protocol/agent-state';
import { layoutNode } from '../schemas';

export const JOURNAL_VERSION = 1;

const id = z.number().int().positive();

/** An agent session a pane can be resumed into: the agent's own id for it, from its own files. */
export const agentSession = z.object({ agent: z.enum(['claude', 'codex']), id: z.string().min(1) });

export const savedPane = z.object({
  id,
  /** The tab's id (not its number). */
  tab: z.number().int().positive(),
  argv: z.array(z.string()).min(1),
  /** The foreground process's working directory when saved. */
  cwd: z.string(),
  /** The variables the pane was started with that the server's own environment lacks or differs in. */
  env: z.record(z.string(), z.string()),
  title: z.string(),
  agent: z.string().nullable(),
  state: agentState,
  /** When the pane's program started (ms since the epoch): agent sessions are matched by it. */
  started: z.number(),
  session: agentSession.nullable(),
  /** The last lines of its screen and history, SGR only where a line is styled, joined by "\n". */
  history: z.string(),
});

export const savedTab = z.object({
  id: z.number().int().positive(),
  layout: layoutNode,
  /** Focus history, most recent first: the head is the focused pane. */
  recent: z.array(id),
  zoomed: id.nullable(),
});

/** What a workspace is besides its tabs and panes. */
const workspaceShape = {
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  status: z.record(z.string(), z.string()),
  activeTab: z.number().int().positive().nullable(),
  next: z.object({ pane: id, tab: z.number().int().positive() }),
};

export const savedWorkspace = z.object({
  name: z.string(),
  ...workspaceShape,
  tabs: z.array(savedTab).min(1),
  panes: z.array(savedPane).min(1),
});

/**
 * One change of a workspace's structure, appended to the change log before the verb that made it
 * answers (issue 32): what the workspace is now, less what did not change since its last record.
 * Replayed in `seq` order over the last journal written whole (see replay.ts).
 */
export const changeRecord = z.object({
  /** Counts on across restarts: a journal written whole holds every change up to its `seq`. */
  seq: z.number().int().positive(),
  at: z.number(),
  socket: z.string(),
  workspace: z.string(),
  /** null: the workspace is gone. */
  now: z
    .object({
      ...workspaceShape,
      /** Its tabs' ids, in order. */
      tabs: z.array(z.number().int().positive()).min(1),
      /** The tabs that are new or changed (layout, focus, zoom) since the last record. */
      changedTabs: z.array(savedTab),
      /** Panes opened since the last record (no history yet; the cwd they started in). */
      opened: z.array(savedPane),
      closed: z.array(id),
    })
    .nullable(),
});

export const journalSchema = z.object({
  version: z.literal(JOURNAL_VERSION),
  /** The fux version that wrote it, for the log. */
  fux: z.string(),
  socket: z.string(),
  savedAt: z.number(),
  /** Set by a clean stop (`kill-server`, SIGTERM); a journal left open means the server died. */
  closed: z.boolean(),
  /** The last change record it holds (none in a journal from before the change log). */
  seq: z.number().int().nonnegative().optional(),
  workspaces: z.array(savedWorkspace),
});

export type AgentSession = z.infer<typeof agentSession>;
export type SavedPane = z.infer<typeof savedPane>;
export type SavedTab = z.infer<typeof savedTab>;
export type SavedWorkspace = z.infer<typeof savedWorkspace>;
export type Journal = z.infer<typeof journalSchema>;
export type ChangeRecord = z.infer<typeof changeRecord>;
