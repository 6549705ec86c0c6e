/**
 * Shell completion for fux: the candidates for the word under the cursor, worked out from the
 * commands as oclif's manifest describes them (verbs, topics, flags, arguments and their fixed
 * values) and, for pane ids and workspace names, from the running server. The scripts that
 * `fux completion SHELL` prints only pass the words to `fux completion --complete` and show what
 * comes back, so every shell completes the same way.
 */

/** A command as the manifest describes it (the subset completion reads). */
export interface CompletableCommand {
  id: string;
  summary?: string;
  description?: string;
  hidden?: boolean;
  flags: Record<
    string,
    {
      type: 'boolean' | 'option';
      char?: string;
      options?: readonly string[];
      allowNo?: boolean;
      hidden?: boolean;
      summary?: string;
      description?: string;
    }
  >;
  args: Record<string, { options?: readonly string[]; description?: string }>;
}

/** What the server knows that completion offers: panes (of the workspace asked about) and workspaces. */
export interface ServerFacts {
  panes: { id: number; label: string }[];
  workspaces: string[];
}

/** Asks the server, at the socket and about the workspace the words name (`--socket`, `-w`), if any. */
export type ServerQuery = (where: {
  socket?: string;
  workspace?: string;
}) => Promise<ServerFacts | undefined>;

export interface Candidate {
  value: string;
  description: string;
}

const DIRECTIONS = ['left', 'right', 'up', 'down'];
/** Argument and flag names whose values are pane ids or workspace names. */
const PANE_NAMES = new Set(['id', 'ids', 'target']);
const WORKSPACE_NAMES = new Set(['workspace', 'name']);

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0]!;

/**
 * Candidates for the last of `words` (the words after `fux`, the last one being typed, maybe empty).
 * `server` is asked only when a pane id or a workspace name is wanted.
 */
export async function complete(
  commands: readonly CompletableCommand[],
  words: readonly string[],
  server: ServerQuery,
): Promise<Candidate[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const visible = commands.filter((c) => !c.hidden);
  const byId = new Map(visible.map((c) => [c.id, c]));
  const matching = (cands: Candidate[]): Candidate[] => cands.filter((c) => c.value.startsWith(current));

  // The command: the longest run of leading words that names one (`zor check` is `zor:check`).
  let command: CompletableCommand | undefined;
  let used = 0;
  // `fux -w work …` attaches (bin/fux): words that start with a flag belong to `attach`.
  if (before[0]?.startsWith('-')) command = byId.get('attach');
  for (let n = 1; !command && n <= before.length; n++) {
    const found = byId.get(before.slice(0, n).join(':'));
    if (found) {
      command = found;
      used = n;
    } else break;
  }
  // The verbs one level below `prefix` (the root, or a topic such as `zor`).
  const verbsBelow = (prefix: string): Candidate[] =>
    visible
      .filter(
        (c) =>
          c.id.startsWith(prefix) && c.id.length > prefix.length && !c.id.slice(prefix.length).includes(':'),
      )
      .map((c) => ({ value: c.id.slice(prefix.length), description: firstLine(c.summary ?? c.description) }));
  if (!command) return before.length === 0 ? matching(verbsBelow('')) : [];
  // Right after a topic that is also a command (`zor <TAB>`): its verbs, then its own arguments.
  const topicVerbs = used === before.length && !current.startsWith('-') ? verbsBelow(`${command.id}:`) : [];

  const rest = before.slice(used);
  const flagByName = new Map(Object.entries(command.flags).filter(([, f]) => !f.hidden));
  const flagOf = (word: string) => {
    if (word.startsWith('--')) return flagByName.get(word.slice(2));
    if (/^-[^-]$/.test(word)) return [...flagByName.values()].find((f) => f.char === word[1]);
    return undefined;
  };
  // Walk the words after the command: flags, their values, and the positional arguments.
  const positionals: string[] = [];
  const where: { socket?: string; workspace?: string } = {};
  let afterDashDash = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (afterDashDash || !word.startsWith('-') || word === '-') {
      positionals.push(word);
      continue;
    }
    if (word === '--') {
      afterDashDash = true;
      continue;
    }
    const flag = flagOf(word);
    if (flag?.type === 'option' && !word.includes('=')) {
      const value = rest[++i];
      if (flagByName.get('workspace') === flag) where.workspace = value;
      if (flagByName.get('socket') === flag) where.socket = value;
    }
  }
  if (afterDashDash) return [];

  // The value of a flag.
  const previous = rest.at(-1);
  const pending = previous === undefined ? undefined : flagOf(previous);
  if (pending?.type === 'option') {
    const name = [...flagByName].find(([, f]) => f === pending)![0];
    if (pending.options) return matching(pending.options.map((value) => ({ value, description: '' })));
    if (name === 'workspace') return matching(await workspaces(server, where));
    if (PANE_NAMES.has(name)) return matching(await panes(server, where));
    return [];
  }

  if (current.startsWith('-')) {
    const flags: Candidate[] = [];
    for (const [name, f] of flagByName) {
      const description = firstLine(f.summary ?? f.description);
      flags.push({ value: `--${name}`, description });
      if (f.type === 'boolean' && f.allowNo) flags.push({ value: `--no-${name}`, description });
    }
    return matching(flags);
  }
  return matching([...topicVerbs, ...(await positional(command, positionals, server, where))]);
}

/** Candidates for the next positional argument of `command`. */
async function positional(
  command: CompletableCommand,
  positionals: readonly string[],
  server: ServerQuery,
  where: Parameters<ServerQuery>[0],
): Promise<Candidate[]> {
  const args = Object.entries(command.args);
  // Past the declared arguments, a verb that repeats its last one (`wait 2 3 …`) keeps it.
  const index = Math.min(positionals.length, args.length - 1);
  if (index < 0 || (positionals.length >= args.length && args.at(-1)![0] !== 'ids')) return [];
  const [name, arg] = args[index]!;
  if (arg.options) return arg.options.map((value) => ({ value, description: '' }));
  if (PANE_NAMES.has(name)) {
    const ids = await panes(server, where);
    return name === 'target' ? ids.concat(DIRECTIONS.map((value) => ({ value, description: '' }))) : ids;
  }
  if (WORKSPACE_NAMES.has(name)) return workspaces(server, where);
  return [];
}

async function panes(server: ServerQuery, where: Parameters<ServerQuery>[0]): Promise<Candidate[]> {
  const facts = await server(where);
  return (facts?.panes ?? []).map((p) => ({ value: String(p.id), description: p.label }));
}

async function workspaces(server: ServerQuery, where: Parameters<ServerQuery>[0]): Promise<Candidate[]> {
  // Every workspace, whichever -w the words name.
  const facts = await server({ socket: where.socket });
  return (facts?.workspaces ?? []).map((value) => ({ value, description: '' }));
}
