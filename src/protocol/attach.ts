/**
 * The attach protocol: what an attached client (local, or remote over iroh) receives and sends.
 * The server renders each workspace's state into frames; a client keeps a mirror and composites
 * it. Frames are diffs against what this client was last sent, computed from the current state
 * when the client can take more (so a slow client gets fewer, fuller frames, never a backlog).
 *
 * A pane row is a list of runs. A run `[style, text]` is one cell per code point of `text`, each
 * one cell wide; a run `[style, text, width]` is exactly one cell holding `text` (a wide glyph, an
 * emoji sequence, a letter with combining marks) that is `width` cells wide (a width-2 cell covers
 * the next column too). Cells after the last run are blank in the default style.
 *
 * `style` indexes this session's style table: 0 is the default rendition; every other id is sent
 * once in a frame's `styles` (as SGR parameters, e.g. `1;38;2;255;0;0`) before a row uses it.
 */
import { z } from 'zod';
import { agentState } from './agent-state';
import { bindingSchema, procedureCall } from './bindings';
import { clientIdSchema, cwdSchema, envSchema, MAX_NAME_CHARS, nameSchema } from './limits';

export const runSchema = z.union([
  z.tuple([z.number().int().nonnegative(), z.string()]),
  z.tuple([z.number().int().nonnegative(), z.string(), z.union([z.literal(1), z.literal(2)])]),
]);
export type Run = z.infer<typeof runSchema>;
export type Row = Run[];

export const cursorShape = z.enum(['block', 'underline', 'bar']);

export const cursorSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  visible: z.boolean(),
  shape: cursorShape,
  blink: z.boolean(),
});
export type PaneCursor = z.infer<typeof cursorSchema>;

export const mouseTracking = z.enum(['none', 'x10', 'vt200', 'drag', 'any']);

/** The input modes the program in a pane has asked for; the client encodes keys and mouse to suit. */
export const modesSchema = z.object({
  appCursor: z.boolean().describe('DECCKM: cursor keys send SS3 (ESC O A) instead of CSI'),
  appKeypad: z.boolean(),
  bracketedPaste: z.boolean(),
  mouse: mouseTracking.describe('the mouse events the program asked for'),
  mouseSgr: z.boolean().describe('DECSET 1006: mouse reports in SGR form'),
  focusEvents: z.boolean().describe('DECSET 1004: the program wants focus in/out reports'),
  kittyKeyboard: z.number().int().describe('the kitty keyboard flags the program pushed (0: none)'),
});
export type PaneModes = z.infer<typeof modesSchema>;

/** A pane's modes until its program asks for others: what a freshly reset terminal does. */
export const DEFAULT_MODES: Readonly<PaneModes> = Object.freeze({
  appCursor: false,
  appKeypad: false,
  bracketedPaste: false,
  mouse: 'none',
  mouseSgr: false,
  focusEvents: false,
  kittyKeyboard: 0,
});

export const paneUpdateSchema = z.object({
  cols: z.number().int().optional(),
  rows: z.number().int().optional(),
  /** Changed viewport rows, by row index. */
  lines: z.record(z.string(), z.array(runSchema)).optional(),
  cursor: cursorSchema.optional(),
  modes: modesSchema.optional(),
});
export type PaneUpdate = z.infer<typeof paneUpdateSchema>;

export const rectSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  cols: z.number().int(),
  rows: z.number().int(),
});

export const viewPaneSchema = rectSchema.extend({
  id: z.number().int(),
  focused: z.boolean(),
  title: z.string(),
  command: z.string().describe('the program the pane runs (first word of its argv)'),
  agent: z.string().nullable(),
  state: agentState,
  unseen: z.boolean().describe('its agent finished while the pane was not focused'),
});
export type ViewPane = z.infer<typeof viewPaneSchema>;

export const viewSchema = z.object({
  workspace: z.string(),
  workspaces: z.array(z.string()).describe('every workspace of the server, for the picker'),
  /** The area panes are laid out in (the client's size less its tab bar and status line). */
  cols: z.number().int(),
  rows: z.number().int(),
  tabs: z.array(
    z.object({
      number: z.number().int(),
      title: z.string(),
      panes: z.number().int(),
      active: z.boolean(),
      /** The most urgent agent state in the tab, and whether one of its panes is unseen. */
      state: agentState,
      unseen: z.boolean(),
    }),
  ),
  /** The panes of the active tab that show (the zoomed one alone while zoomed). */
  panes: z.array(viewPaneSchema),
  checkouts: z
    .array(
      z.object({
        pane: z.number().int(),
        tab: z.number().int(),
        repo: z.string().describe("the repository's main checkout"),
        branch: z.string().nullable().describe('null when HEAD is detached'),
        worktree: z.string().nullable().describe('the fux worktree (its name), null if not one'),
        agent: z.string().nullable(),
        state: agentState,
      }),
    )
    .optional()
    .describe(
      'the panes of the workspace working in a git checkout: the status line branch, the worktree picker',
    ),
  zoomed: z.boolean(),
  status: z.array(z.object({ segment: z.string(), text: z.string() })),
  popup: rectSchema.extend({ id: z.number().int(), title: z.string() }).nullable(),
  keys: z.object({
    prefix: z.string().describe('the prefix key, e.g. C-a'),
    bindings: z.record(z.string(), bindingSchema),
  }),
  clients: z.number().int().describe('clients attached to this workspace'),
});
export type AttachView = z.infer<typeof viewSchema>;

/**
 * Why a session ended, for the client to act on without reading the message: its workspace
 * closed (its last pane exited, or it was killed), or the server detached this client.
 */
export const endReason = z.enum(['workspace-closed', 'detached']);
export type EndReason = z.infer<typeof endReason>;

export const endSchema = z.object({
  reason: endReason.describe(
    'what the client does: "workspace-closed" shows [exited], "detached" [detached]',
  ),
  message: z.string().describe('the same, for a person: "workspace main closed"'),
});
export type AttachEnd = z.infer<typeof endSchema>;

export const frameSchema = z.object({
  seq: z.number().int(),
  /** Sent in the first frame: this attachment's id, for resize, input and actions. */
  client: z.string().optional(),
  /** The client drops every pane row it holds: what follows is the whole state. */
  reset: z.boolean().optional(),
  view: viewSchema.optional(),
  styles: z.record(z.string(), z.string()).optional(),
  /** Updates of the visible panes and the popup, by pane id. */
  panes: z.record(z.string(), paneUpdateSchema).optional(),
  /** Panes that rang their bell since the last frame. */
  bell: z.array(z.number().int()).optional(),
  /** The session is over: why, then the end of the subscription. */
  end: endSchema.optional(),
});
export type AttachFrame = z.infer<typeof frameSchema>;

export { clientAction, type ClientAction } from './bindings';

/** One option of a blocked pane's prompt, as drawn (what `fux answer` and the prefix-a picker offer). */
export const promptOption = z.object({
  number: z.number().describe('as drawn: 2 for "2. Yes, and don\'t ask again…"'),
  label: z.string().describe("the option's text on its first line"),
  cursor: z.boolean().describe('the cursor is on it'),
});
export type PromptOption = z.infer<typeof promptOption>;

/** The prompt a blocked pane shows: the rule that recognised it and its options. */
export const promptSchema = z.object({
  rule: z.string().describe('the blocked rule that recognised the prompt'),
  options: z.array(promptOption),
});
export type PromptOptions = z.infer<typeof promptSchema>;

export const actionInput = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('call'), ...procedureCall.shape })
    .describe(
      'a key or click bound to a control procedure (a click on a pane is `focus`, on a tab `tab.select`): the server calls it in the context of this client',
    ),
  z.object({ kind: z.literal('switch-workspace'), workspace: nameSchema }),
  z.object({
    kind: z.literal('binding'),
    key: z.string().max(MAX_NAME_CHARS).describe('a key bound to an external command in the config'),
  }),
]);
export type AttachAction = z.infer<typeof actionInput>;

export const attachInputs = {
  prompt: z.object({
    client: clientIdSchema,
    pane: z.number().int().positive().optional().describe('default: the focused pane'),
  }),
  session: z.object({
    workspace: nameSchema.optional(),
    cols: z.number().int().min(1).max(2000).describe('the pane area: the terminal less the client chrome'),
    rows: z.number().int().min(1).max(1000),
    cwd: cwdSchema.optional().describe('where a workspace created by this attach starts its pane'),
    env: envSchema.optional(),
  }),
  resize: z.object({
    client: clientIdSchema,
    cols: z.number().int().min(1).max(2000),
    rows: z.number().int().min(1).max(1000),
  }),
  input: z.object({
    client: clientIdSchema,
    pane: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'a pane (a mouse report for the pane under the mouse); default: the popup, else the focused pane',
      ),
    data: z
      .string()
      .max(1024 * 1024)
      .describe('bytes as typed (UTF-8)'),
    binary: z
      .boolean()
      .optional()
      .describe(
        'data holds raw bytes, one per character (U+0000–U+00FF): an X10 mouse report past column 95',
      ),
  }),
  action: z.object({ client: clientIdSchema, action: actionInput }),
  history: z.object({
    client: clientIdSchema,
    pane: z.number().int().positive(),
    lines: z.number().int().min(0).max(100_000).describe('rows of history above the screen'),
  }),
};

export const historySchema = z.object({
  /** Oldest first: history rows, then the screen's rows. */
  lines: z.array(z.array(runSchema)),
  styles: z.record(z.string(), z.string()),
  /** Index in `lines` of the screen's first row. */
  screenTop: z.number().int(),
  cols: z.number().int(),
});
export type AttachHistory = z.infer<typeof historySchema>;
