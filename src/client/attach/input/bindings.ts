/**
 * The key table used after the prefix: the defaults, overridden and extended by the config's
 * `keys.bindings` (from the attach view). A binding calls a control procedure (written as
 * `{ call, input }`, or as one of the action names that stand for a call), runs an external
 * command, or is one of the client's own actions; `none` removes a default.
 */
import type { AttachAction } from '../../../protocol/attach';
import {
  actionNames,
  clientAction,
  namedCall,
  UNBOUND,
  type Binding,
  type ClientAction,
} from '../../../protocol/bindings';
import { formatKey, parseKeyName } from '../../../protocol/keys';

export type { Binding };

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
  a: 'answer-picker',
  W: 'worktree-picker',
  '?': 'help',
};

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
  'answer-picker': "answer the focused agent's prompt: pick one of its options",
  'worktree-picker': "the panes in git worktrees, with their branch and agent's state",
  help: 'this help',
  'send-prefix': 'send the prefix key to the pane',
};

function isClientAction(name: string): name is ClientAction {
  return clientAction.safeParse(name).success;
}

/** Every action name a binding may use (`select-tab-N` for any N ≥ 1). */
export function builtinActionNames(): string[] {
  return actionNames();
}

/** A binding's meaning, or undefined for `none`; an error message for an unknown action. */
export function bindingMeaning(written: string, binding: Binding): Bound | undefined | Error {
  if (typeof binding !== 'string') {
    if ('command' in binding) return { action: { kind: 'binding', key: written } };
    return { action: { kind: 'call', call: binding.call, input: binding.input ?? {} } };
  }
  if (binding === UNBOUND) return undefined;
  const call = namedCall(binding);
  if (call) return { action: { kind: 'call', ...call } };
  if (isClientAction(binding)) return { client: binding };
  return new Error(`${written}: unknown action "${binding}" (one of ${actionNames().join(', ')})`);
}

function describe(written: string, binding: Binding, bound: Bound): string {
  if (typeof binding !== 'string') {
    if ('command' in binding) return `${binding.popup ? 'popup' : 'run'}: ${binding.command}`;
    const args = Object.entries(binding.input ?? {}).map(([k, v]) => `${k}=${String(v)}`);
    return ['call:', binding.call, ...args].join(' ');
  }
  if ('action' in bound && bound.action.kind === 'call' && bound.action.call === 'tab.select') {
    const which = bound.action.input.which;
    if (typeof which === 'number') {
      return which === Number(written) ? 'select the tab of that number' : `select tab ${which}`;
    }
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
