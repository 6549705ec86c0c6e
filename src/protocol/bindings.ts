/**
 * What a key after the prefix can do, as the config writes it and as the client and server read
 * it. A key calls one of the control procedures (docs/protocol.md), as tmux binds keys to
 * commands; the server fills in what the attached client's context says (its workspace, the
 * focused pane, where that pane works and the client's environment). A few things only the client
 * can do (detach, copy mode, the picker, help, send the prefix) have names of their own.
 */
import { z } from 'zod';

/**
 * The procedures a key may call: those that act on the workspace the client shows. Nothing that
 * lists, captures or subscribes (a key has nowhere to show it), nor what manages the server, its
 * workspaces or its remote peers (a remote client gets no more than attaching gives it).
 */
export const bindableProcedure = z.enum([
  'new',
  'split',
  'focus',
  'zoom',
  'kill',
  'resize',
  'tab.new',
  'tab.select',
  'sendKeys',
  'setStatus',
  'popup',
  'answer',
]);
export type BindableProcedure = z.infer<typeof bindableProcedure>;

/** A key bound to a procedure: its name and the input it gets (the client's context fills in the rest). */
export const procedureCall = z.strictObject({
  call: bindableProcedure.describe('a control procedure (docs/protocol.md)'),
  input: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("its input; workspace, the pane, cwd and env default to the attached client's"),
});
export type ProcedureCall = z.output<typeof procedureCall>;

/** Actions the client performs itself; the config may bind keys to these as well. */
export const clientAction = z.enum([
  'detach',
  'copy-mode',
  'workspace-picker',
  'answer-picker',
  'worktree-picker',
  'help',
  'send-prefix',
]);
export type ClientAction = z.infer<typeof clientAction>;

/** The binding value that removes a default. */
export const UNBOUND = 'none';

/**
 * The action names bindings were written with before they named procedures, and the calls they
 * are; a config that uses them keeps working. `select-tab-N` is `tab.select` of tab N.
 */
export const NAMED_CALLS: Readonly<Record<string, ProcedureCall>> = {
  'split-right': { call: 'split', input: { direction: 'v' } },
  'split-down': { call: 'split', input: { direction: 'h' } },
  'focus-left': { call: 'focus', input: { target: 'left' } },
  'focus-right': { call: 'focus', input: { target: 'right' } },
  'focus-up': { call: 'focus', input: { target: 'up' } },
  'focus-down': { call: 'focus', input: { target: 'down' } },
  'kill-pane': { call: 'kill', input: {} },
  'new-pane': { call: 'new', input: {} },
  'new-tab': { call: 'tab.new', input: {} },
  'next-tab': { call: 'tab.select', input: { which: 'next' } },
  'prev-tab': { call: 'tab.select', input: { which: 'prev' } },
  zoom: { call: 'zoom', input: {} },
};

const SELECT_TAB = /^select-tab[- ]([1-9][0-9]*)$/;

/** The call an action name stands for, if it is one. */
export function namedCall(name: string): ProcedureCall | undefined {
  if (Object.hasOwn(NAMED_CALLS, name)) return NAMED_CALLS[name];
  const tab = SELECT_TAB.exec(name);
  return tab ? { call: 'tab.select', input: { which: Number(tab[1]) } } : undefined;
}

/** Every name a binding may be written as: the named calls, `select-tab-N`, the client's actions, `none`. */
export function actionNames(): string[] {
  return [...Object.keys(NAMED_CALLS), 'select-tab-N', ...clientAction.options, UNBOUND];
}

/** A shell command run by the server with the pane's context, in a popup or in the background. */
export const commandBinding = z.strictObject({
  command: z.string().min(1).describe('a shell command (run with /bin/sh -c)'),
  popup: z.boolean().default(false).describe('show it in a popup until it exits'),
});

/** A binding as the attach view carries it (the config's, already checked). */
export const bindingSchema = z.union([
  z.string().describe('an action name: a named call, select-tab-N, a client action or none'),
  procedureCall.describe('a control procedure'),
  commandBinding.describe('an external command'),
]);
export type Binding = z.input<typeof bindingSchema>;
