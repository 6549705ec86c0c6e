/**
 * The key table used after the prefix: the defaults, overridden and extended by the config's
 * `keys.bindings` (from the attach view). A binding is a built-in action's name or an external
 * command; `none` removes a default.
 */
import type { z } from 'zod';
import type { AttachAction, bindingSchema, ClientAction, ServerAction } from '../../../protocol/attach';
import { formatKey, parseKeyName } from './keys';

export type Binding = z.infer<typeof bindingSchema>;

/** What a key bound after the prefix does. */
export type Bound = { action: AttachAction } | { client: ClientAction };

export interface BoundKey {
  /** The key as the config (or the defaults) wrote it; external commands are named by it. */
  written: string;
  bound: Bound;
  description: string;
}

export const DEFAULT_PREFIX = 'C-a';

/** The defaults after the prefix, in the order the help lists them. The prefix itself sends the prefix. */
export const DEFAULT_BINDINGS: Readonly<Record<string, string>> = {
  '|': 'split-right',
  '-': 'split-down',
  h: 'focus-left',
  Left: 'focus-left',
  j: 'focus-down',
  Down: 'focus-down',
  k: 'focus-up',
  Up: 'focus-up',
  l: 'focus-right',
  Right: 'focus-right',
  x: 'kill-pane',
  c: 'new-pane',
  t: 'new-tab',
  n: 'next-tab',
  p: 'prev-tab',
  ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [String(n), `select-tab-${n}`])),
  z: 'zoom',
  '[': 'copy-mode',
  d: 'detach',
  s: 'workspace-picker',
  '?': 'help',
};

/** The binding value that removes a default. */
export const UNBOUND = 'none';

const DESCRIPTIONS: Record<string, string> = {
  'split-right': 'split the pane, the new one to the right',
  'split-down': 'split the pane, the new one below',
  'focus-left': 'focus the pane to the left',
  'focus-right': 'focus the pane to the right',
  'focus-up': 'focus the pane above',
  'focus-down': 'focus the pane below',
  'kill-pane': 'close the pane',
  'new-pane': 'open a pane',
  'new-tab': 'open a tab',
  'next-tab': 'next tab',
  'prev-tab': 'previous tab',
  zoom: 'zoom the pane in or out',
  detach: 'detach (the panes keep running)',
  'copy-mode': 'copy mode: scroll, select, search, yank',
  'workspace-picker': 'switch workspace',
  help: 'this help',
  'send-prefix': 'send the prefix key to the pane',
};

// The client takes only types from the server; a record over each union keeps these lists exact.
const SERVER_ACTIONS: Record<ServerAction, true> = {
  'split-right': true,
  'split-down': true,
  'focus-left': true,
  'focus-right': true,
  'focus-up': true,
  'focus-down': true,
  'kill-pane': true,
  'new-pane': true,
  'new-tab': true,
  'next-tab': true,
  'prev-tab': true,
  zoom: true,
};
const CLIENT_ACTIONS: Record<ClientAction, true> = {
  detach: true,
  'copy-mode': true,
  'workspace-picker': true,
  help: true,
  'send-prefix': true,
};

function isServerAction(name: string): name is ServerAction {
  return Object.hasOwn(SERVER_ACTIONS, name);
}
function isClientAction(name: string): name is ClientAction {
  return Object.hasOwn(CLIENT_ACTIONS, name);
}

const SELECT_TAB = /^select-tab[- ]([1-9][0-9]*)$/;

/** Every built-in action name a binding may use (`select-tab-N` for any N ≥ 1). */
export function builtinActionNames(): string[] {
  return [...Object.keys(SERVER_ACTIONS), ...Object.keys(CLIENT_ACTIONS), 'select-tab-N', UNBOUND];
}

/** A binding's meaning, or undefined for `none`; an error message for an unknown action. */
export function bindingMeaning(written: string, binding: Binding): Bound | undefined | Error {
  if (typeof binding !== 'string') return { action: { kind: 'binding', key: written } };
  if (binding === UNBOUND) return undefined;
  if (isServerAction(binding)) return { action: { kind: 'builtin', action: binding } };
  if (isClientAction(binding)) return { client: binding };
  const tab = SELECT_TAB.exec(binding);
  if (tab) return { action: { kind: 'select-tab', number: Number(tab[1]) } };
  return new Error(`${written}: unknown action "${binding}" (one of ${builtinActionNames().join(', ')})`);
}

function describe(written: string, binding: Binding, bound: Bound): string {
  if (typeof binding !== 'string') return `${binding.popup ? 'popup' : 'run'}: ${binding.command}`;
  if ('action' in bound && bound.action.kind === 'select-tab') {
    return bound.action.number === Number(written)
      ? 'select the tab of that number'
      : `select tab ${bound.action.number}`;
  }
  return DESCRIPTIONS[binding] ?? binding;
}

export interface KeyTable {
  /** By canonical key name (`formatKey`), in help order. */
  keys: Map<string, BoundKey>;
  /** Config entries that could not be used, as `key: what is wrong`. */
  problems: string[];
}

/** The defaults with the config's bindings over them; the prefix key itself sends the prefix unless rebound. */
export function keyTable(config: Readonly<Record<string, Binding>>, prefix: string): KeyTable {
  const keys = new Map<string, BoundKey>();
  const problems: string[] = [];
  const entries: Array<[string, Binding]> = [...Object.entries(DEFAULT_BINDINGS), [prefix, 'send-prefix']];
  const put = (written: string, binding: Binding, fromConfig: boolean) => {
    const key = parseKeyName(written);
    if (!key) {
      if (fromConfig) problems.push(`${written}: not a key name (e.g. C-a, M-x, F5, Enter, |)`);
      return;
    }
    const meaning = bindingMeaning(written, binding);
    if (meaning instanceof Error) {
      problems.push(meaning.message);
      return;
    }
    const name = formatKey(key);
    if (meaning === undefined) keys.delete(name);
    else keys.set(name, { written, bound: meaning, description: describe(written, binding, meaning) });
  };
  for (const [written, binding] of entries) put(written, binding, false);
  for (const [written, binding] of Object.entries(config)) put(written, binding, true);
  return { keys, problems };
}
