import { z } from 'zod';
import { agentState } from '../protocol/agent-state';
import { eventTypes, exitStatus, visibleFlags } from './events';
import { CHOICE_PATTERN } from '../zor';
import { promptOption, promptSchema } from '../protocol/attach';
import {
  argvSchema,
  cwdSchema,
  envSchema,
  MAX_NAME_CHARS,
  MAX_PATH_CHARS,
  MAX_STATUS_TEXT_CHARS,
  nameSchema,
} from '../protocol/limits';

/** Input and output shapes of the control API. The router, the client's types and docs/protocol.md all come from these. */

export const paneId = z.number().int().positive().describe('a pane id, unique in its workspace');
export const workspaceName = nameSchema
  .optional()
  .describe('the workspace; default: the only one, else `main`');

/** What to run and where. Absent fields mean the server's own cwd and environment. */
const launch = {
  argv: argvSchema.optional().describe("the command; default: the caller's $SHELL"),
  cwd: cwdSchema.optional().describe('working directory of the new pane'),
  env: envSchema.optional().describe('environment of the new pane (FUX_* are set by the server)'),
};

/** A fux worktree's name: the branch it checks out (checked by git, `git check-ref-format --branch`). */
const worktreeName = z.string().min(1).max(200);

/** `--worktree NAME`: start the program in fux's git worktree NAME of the caller's repository (made if needed). */
const inWorktree = {
  worktree: worktreeName
    .optional()
    .describe(
      "start in the git worktree on branch NAME of cwd's repository, made (or reused) under worktree_root",
    ),
};

/** The repository a worktree verb is about: the one this directory is in. */
const repoCwd = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .describe("a directory in the repository (the caller's cwd)");

export const direction = z.enum(['left', 'right', 'up', 'down']);

export const inputs = {
  popup: z.object({
    workspace: workspaceName,
    ...launch,
    cols: z.number().int().min(1).max(2000).optional().describe('width; default 80 % of the workspace'),
    rows: z.number().int().min(1).max(1000).optional().describe('height; default 80 % of the workspace'),
  }),
  list: z.object({
    workspace: nameSchema.optional().describe('only this workspace; default: all'),
    from: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("where the page starts: the last page's `next`; default: the first page"),
  }),
  new: z.object({ workspace: workspaceName, ...launch, ...inWorktree }),
  split: z.object({
    workspace: workspaceName,
    direction: z.enum(['h', 'v']).describe('v: side by side, new pane right; h: stacked, new pane below'),
    target: paneId.optional().describe('the pane to split; default: the focused one'),
    ...launch,
    ...inWorktree,
  }),
  focus: z.object({ workspace: workspaceName, target: z.union([paneId, direction]) }),
  zoom: z.object({ workspace: workspaceName, id: paneId.optional() }),
  kill: z.object({ workspace: workspaceName, id: paneId }),
  resize: z.object({
    workspace: workspaceName,
    id: paneId,
    delta: z
      .number()
      .int()
      .min(-10_000)
      .max(10_000)
      .describe('cells to grow (+) or shrink (−) along the split axis'),
  }),
  sendKeys: z.object({
    workspace: workspaceName,
    id: paneId,
    keys: z
      .array(z.string().max(65_536))
      .min(1)
      .max(1024)
      .describe('key names (Enter, C-c, Up…) or text with \\x1b-style escapes'),
    literal: z.boolean().optional().describe('send every argument as it is: no key names, no escapes'),
  }),
  answer: z.object({
    workspace: workspaceName,
    id: paneId,
    choice: z
      .string()
      .max(MAX_NAME_CHARS)
      .regex(CHOICE_PATTERN, {
        error: (issue) =>
          // A choice too long is refused by its length too; the echo stays a name's length.
          `unknown choice ${JSON.stringify(String(issue.input).slice(0, MAX_NAME_CHARS))}: answer yes, no, always or an option number (1-99)`,
      })
      .describe('yes (the plain accept), always (accept and stop asking), no (decline), or an option number'),
  }),
  prompt: z.object({ workspace: workspaceName, id: paneId }),
  capture: z.object({
    workspace: workspaceName,
    id: paneId,
    attrs: z.boolean().optional().describe('include cell attributes as SGR sequences'),
    scrollback: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .describe('lines of history above the screen'),
  }),
  tabNew: z.object({ workspace: workspaceName, ...launch }),
  tabSelect: z.object({
    workspace: workspaceName,
    which: z
      .union([z.enum(['next', 'prev']), z.number().int().positive()])
      .describe('next, prev, or a tab number from 1'),
  }),
  workspaceList: z.object({}),
  workspaceNew: z.object({
    name: nameSchema,
    cols: z.number().int().min(2).max(10_000).optional(),
    rows: z.number().int().min(2).max(10_000).optional(),
  }),
  workspaceKill: z.object({ name: nameSchema }),
  workspaceResize: z.object({
    workspace: workspaceName,
    cols: z.number().int().min(2).max(10_000),
    rows: z.number().int().min(2).max(10_000),
  }),
  setStatus: z.object({
    workspace: workspaceName,
    segment: nameSchema,
    text: z.string().max(MAX_STATUS_TEXT_CHARS).describe('empty removes the segment'),
  }),
  subscribe: z.object({
    events: z
      .array(z.enum(eventTypes as [string, ...string[]]))
      .optional()
      .describe('event types; default: all'),
    workspace: nameSchema.optional().describe('only events of this workspace; default: all'),
    since: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'resume: first replay the held events with a greater seq (the history keeps the last `event_history`), then go on live',
      ),
  }),
  wait: z.object({
    workspace: workspaceName,
    ids: z.array(paneId).min(1).max(1024).describe('the panes to watch'),
    state: agentState.describe('the state to wait for'),
    any: z
      .boolean()
      .optional()
      .describe('the first pane to get there ends the wait; default: every pane must'),
    now: z
      .boolean()
      .optional()
      .describe(
        "a pane already in the state counts; default: a transition after the pane's last input (or its start) does",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      .optional()
      .describe('give up (a TIMEOUT error) after this many ms; default: wait as long as it takes'),
  }),
  worktreeList: z.object({ cwd: repoCwd }),
  worktreeDiff: z.object({
    cwd: repoCwd,
    name: worktreeName,
    color: z.boolean().optional().describe('colour the diff (git --color=always); default: plain'),
  }),
  worktreeRemove: z.object({
    cwd: repoCwd,
    name: worktreeName,
    force: z.boolean().optional().describe('remove it even with uncommitted changes (they are lost)'),
  }),
  serverInfo: z.object({}),
  serverKill: z.object({}),
  serverConfigProblem: z.object({}),
};

/** The git checkout a pane's cwd is in. */
const checkoutFields = {
  repo: z.string().nullable().describe("the repository's main checkout; null outside a git checkout"),
  branch: z.string().nullable().describe('the branch checked out there; null outside one or when detached'),
  worktree: z.string().nullable().describe('the fux worktree the pane is in (its name), null if none'),
};

const paneOfWorktree = z.object({
  workspace: z.string(),
  id: paneId,
  agent: z.string().nullable(),
  state: agentState,
});

const rect = { x: z.number(), y: z.number(), cols: z.number(), rows: z.number() };

export const paneInfo = z.object({
  id: paneId,
  tab: z.number().describe('the tab number, from 1'),
  command: z.array(z.string()),
  pid: z.number(),
  cwd: z.string().describe("the foreground process's working directory"),
  title: z.string(),
  focused: z.boolean().describe('the focused pane of its tab'),
  active: z.boolean().describe('focused in the active tab: where keys go'),
  agent: z
    .string()
    .nullable()
    .describe('the agent zor sees in the foreground (or the pane reported), null if none'),
  state: agentState.describe("the agent's state; none without an agent"),
  visible: visibleFlags,
  since: z
    .number()
    .describe('when the state last changed (ms since the epoch; the pane start before any change)'),
  unseen: z
    .boolean()
    .describe('the agent finished (working or blocked, then idle) and the pane has not been focused since'),
  ...checkoutFields,
  restored: z.boolean().describe('it came back from the journal after a restart (issue 12)'),
  survived: z
    .boolean()
    .describe(
      'of the restored: its program kept running under its holder while no server ran, and is the same process (issue 27); false: restarted from the journal',
    ),
  ...rect,
});

type LayoutJson = { pane: number } | { axis: 'row' | 'column'; ratio: number; a: LayoutJson; b: LayoutJson };
export const layoutNode: z.ZodType<LayoutJson> = z.lazy(() =>
  z.union([
    z.object({ pane: z.number() }),
    z.object({ axis: z.enum(['row', 'column']), ratio: z.number(), a: layoutNode, b: layoutNode }),
  ]),
);

export const tabInfo = z.object({
  number: z.number().describe('position from 1'),
  id: z.number(),
  active: z.boolean(),
  focused: paneId,
  zoomed: paneId.nullable(),
  layout: layoutNode,
});

export const workspaceInfo = z.object({
  name: z.string(),
  cols: z.number(),
  rows: z.number(),
  status: z.record(z.string(), z.string()),
  tabs: z.array(tabInfo),
  panes: z.array(paneInfo),
});

export const outputs = {
  list: z.object({
    workspaces: z
      .array(workspaceInfo)
      .describe(
        'in pages of about 768 KiB: a workspace may go on in the next page, with more tabs and panes',
      ),
    next: z
      .number()
      .int()
      .optional()
      .describe('there is more: call again with this `from`; absent on the last page'),
  }),
  opened: z.object({ id: paneId, workspace: z.string(), tab: z.number(), pid: z.number() }),
  focus: z.object({ id: paneId }),
  zoom: z.object({ id: paneId, zoomed: z.boolean() }),
  ok: z.object({ ok: z.literal(true) }),
  popup: z.object({ id: paneId, exit: exitStatus }),
  resize: z.object({ changed: z.boolean() }),
  sendKeys: z.object({ bytes: z.number() }),
  prompt: promptSchema,
  answer: z.object({
    option: promptOption.describe('the option chosen'),
    keys: z.array(z.string()).describe('the keys sent, as send-keys names'),
    bytes: z.number(),
  }),
  capture: z.object({
    text: z.string(),
    lines: z.number(),
    truncated: z.boolean().describe('the text was cut to its last 128 KiB'),
    cols: z.number(),
    rows: z.number(),
    cursor: z.object({ x: z.number(), y: z.number() }),
  }),
  tabSelect: z.object({ number: z.number() }),
  workspaceList: z.object({
    workspaces: z.array(
      z.object({ name: z.string(), panes: z.number(), tabs: z.number(), cols: z.number(), rows: z.number() }),
    ),
  }),
  workspaceNew: z.object({ name: z.string() }),
  workspaceKill: z.object({ panes: z.number() }),
  wait: z.object({
    panes: z
      .array(
        z.object({
          id: paneId,
          agent: z.string().nullable(),
          previous: agentState
            .nullable()
            .describe('the state it came from; null when it was already there (`now`)'),
          state: agentState,
          ts: z.number().describe('when it got there (ms since the epoch)'),
        }),
      )
      .describe('the panes that got there, in the order they did (with `any`, the first)'),
  }),
  worktreeList: z.object({
    worktrees: z.array(
      z.object({
        name: z.string(),
        branch: z.string().nullable().describe('the branch checked out (null: detached)'),
        path: z.string(),
        base: z.string().describe('the branch (or commit) it was made from: what `diff` compares with'),
        changed: z.number().describe('files with uncommitted changes, untracked ones included'),
        ahead: z.number().describe('commits on its branch that the base does not have'),
        state: z.string().describe('clean, changed, ahead N, or changed, ahead N'),
        panes: z.array(paneOfWorktree).describe('the panes working in it'),
      }),
    ),
  }),
  worktreeDiff: z.object({
    text: z
      .string()
      .describe('`git diff` output: the changes since the merge-base with the base, then untracked files'),
    truncated: z.boolean().describe('the text was cut to its first 768 KiB'),
    path: z.string(),
    base: z.string(),
  }),
  worktreeRemove: z.object({
    path: z.string(),
    branch: z.string().describe('the branch, which stays with its commits'),
    panes: z.array(paneOfWorktree).describe('the panes that were closed'),
  }),
  serverConfigProblem: z.object({
    problem: z
      .string()
      .nullable()
      .describe(
        '`file:line: key: problem` lines, then what is in force instead; null: none, or told already',
      ),
  }),
  serverInfo: z.object({
    pid: z.number(),
    version: z.string(),
    socket: z.string(),
    uptimeMs: z.number(),
    log: z.string(),
  }),
};

export type PaneInfo = z.infer<typeof paneInfo>;
export type TabInfo = z.infer<typeof tabInfo>;
export type PaneOfWorktree = z.infer<typeof paneOfWorktree>;
export type WaitResult = z.infer<typeof outputs.wait>;
export type WorkspaceInfo = z.infer<typeof workspaceInfo>;
