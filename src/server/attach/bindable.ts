import type { z } from 'zod';
import type { BindableProcedure, ProcedureCall } from '../../protocol/bindings';
import type { PaneId } from '../layout';
import { inputs } from '../schemas';

/** Each procedure a key may call, by its router path, and the input schema the router checks. */
export const BINDABLE_INPUTS: Readonly<Record<BindableProcedure, z.ZodObject>> = {
  new: inputs.new,
  split: inputs.split,
  focus: inputs.focus,
  zoom: inputs.zoom,
  kill: inputs.kill,
  resize: inputs.resize,
  'tab.new': inputs.tabNew,
  'tab.select': inputs.tabSelect,
  sendKeys: inputs.sendKeys,
  setStatus: inputs.setStatus,
  popup: inputs.popup,
  answer: inputs.answer,
};

/** Procedures that start a program: it starts where the focused pane works, with the client's environment. */
const LAUNCHES: ReadonlySet<BindableProcedure> = new Set(['new', 'split', 'tab.new', 'popup']);

/** Procedures whose `id` is the pane they act on: the focused one unless the binding names one. */
const ON_PANE: ReadonlySet<BindableProcedure> = new Set(['kill', 'resize', 'sendKeys', 'zoom', 'answer']);

/** What an attached client's context says a binding's call is about. */
export interface CallContext {
  workspace: string;
  focused: PaneId | undefined;
  cwd: string;
  env: Record<string, string>;
}

/**
 * A binding's input, checked against its procedure's schema as far as the config can write it
 * (what the client's context fills in may be missing): undefined when it is fine, else the problem.
 */
export function checkBindingInput(call: ProcedureCall): string | undefined {
  const parsed = BINDABLE_INPUTS[call.call].partial().strict().safeParse(call.input);
  if (parsed.success) return undefined;
  return parsed.error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * The input a key's call gets: the binding's own, over the client's context. Undefined when the
 * call acts on the focused pane and there is none (the key then does nothing, as an arrow key
 * with nowhere to go).
 */
export function callInput(call: ProcedureCall, ctx: CallContext): Record<string, unknown> | undefined {
  const input: Record<string, unknown> = { workspace: ctx.workspace };
  if (LAUNCHES.has(call.call)) Object.assign(input, { cwd: ctx.cwd, env: ctx.env });
  if (ON_PANE.has(call.call) && call.input.id === undefined) {
    if (ctx.focused === undefined) return undefined;
    input.id = ctx.focused;
  }
  if (call.call === 'focus' && typeof call.input.target === 'string' && ctx.focused === undefined)
    return undefined;
  return { ...input, ...call.input };
}
