/**
 * The user's config: `$XDG_CONFIG_HOME/fux/config.toml`, TOML read with smol-toml and checked by a
 * strict zod schema (an unknown key is an error, so a typo never silently does nothing). Every
 * problem names the file, the line and the key. docs/config.md lists the keys; a key added here
 * goes there too.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { isTomlError, parseToml } from '../zor/rules/toml';
import { tomlKeyAt, tomlKeyLine } from './toml-key-line';
import { NotUtf8, UnreadableFile, decodeUtf8, readRegularFile } from '../regular-file';
import { systemReason } from '../fs-failure';
import { issueText } from '../rpc/error-formatter';
import { clientAction, commandBinding, namedCall, procedureCall, UNBOUND } from '../protocol/bindings';
import { KEY_FORMS, parseKeyName } from '../protocol/keys';
import { checkBindingInput } from './attach/bindable';
import { DEFAULT_WORKTREE_ROOT } from './worktree/worktrees';
import { DEFAULT_HISTORY } from './event-ring';

/** A key as config writes it (`C-a`, `M-x`, `F5`, `|`): the key model the attach client matches presses with. */
const keySchema = z
  .string()
  .refine((text) => parseKeyName(text) !== undefined, `not a key name: ${KEY_FORMS}`);

/** An action name: a named call (`split-right`, `select-tab-N`…), a client action, or `none` (the key does nothing: it removes a default). */
const actionName = z
  .string()
  .refine(
    (name) => namedCall(name) !== undefined || clientAction.safeParse(name).success || name === UNBOUND,
    'not an action (docs/config.md lists them)',
  );

/** A control procedure and its input, checked against the procedure's own schema. */
const callBinding = procedureCall.superRefine((call, ctx) => {
  const problem = checkBindingInput(call);
  if (problem !== undefined)
    ctx.addIssue({ code: 'custom', path: ['input'], message: `${call.call}: ${problem}` });
});

const binding = z.union([actionName, callBinding, commandBinding]);

/**
 * The most lines of history a pane may keep (docs/config.md). Affordable because all but the
 * newest rows are packed outside xterm (src/server/pane/scrollback.ts): seq 1 1100000 at 200x50
 * costs fux about what it costs tmux with the same history-limit (docs/benchmarks.md, SCROLLBACK).
 */
export const MAX_SCROLLBACK = 1_000_000;

export const configSchema = z.strictObject({
  prefix: keySchema
    .default('C-a')
    .describe('the prefix key of an attached client; pressed twice it sends itself'),
  bindings: z
    .record(keySchema, binding)
    .default({})
    .describe(
      'keys after the prefix: { call, input } (a control procedure), an action name, or { command, popup }; these add to or replace the defaults',
    ),
  default_command: z
    .union([z.string().min(1), z.array(z.string()).min(1)])
    .optional()
    .describe(
      'what a pane runs when no command is given: a shell command string or an argv array; default: $SHELL',
    ),
  scrollback: z
    .number()
    .int()
    .min(0)
    .max(MAX_SCROLLBACK)
    .default(10_000)
    .describe('lines of history each new pane keeps'),
  notify: z.boolean().default(true).describe('desktop notifications when an agent is blocked or finishes'),
  notify_delay: z
    .number()
    .min(0)
    .max(3600)
    .default(0)
    .describe(
      'seconds to wait before a "finished" notification; none is sent if the pane leaves idle or is looked at meanwhile',
    ),
  event_history: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_HISTORY)
    .describe('sequenced events the server keeps so `fux subscribe --since SEQ` can resume'),
  hooks: z
    .array(z.string().min(1))
    .default([])
    .describe('shell commands started with the server and restarted (with backoff) when they exit'),
  worktree_root: z
    .string()
    .min(1)
    .default(DEFAULT_WORKTREE_ROOT)
    .describe(
      'where `--worktree NAME` puts worktree NAME: relative to the repository, `~` is home, `{repo}` its directory name',
    ),
  worktree_setup: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a shell command run in a new worktree before its command starts (e.g. `npm ci`); if it fails the worktree is removed',
    ),
  restore: z
    .enum(['crash', 'always', 'never'])
    .default('crash')
    .describe(
      "when a starting server brings back the last one's workspaces: after a crash (it did not stop cleanly), always (after `kill-server` too), or never (`fux restore` still can)",
    ),
  restore_history: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(2000)
    .describe("lines of each pane's screen and history the journal keeps for a restore"),
  restore_skip: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'programs (by name, like "htop") not restarted on restore: their pane shows its history and [exited]',
    ),
});

export type FuxConfig = z.infer<typeof configSchema>;

/** The config's default command as an argv (a string runs through /bin/sh -c); empty means $SHELL. */
export function defaultCommandOf(config: FuxConfig): string[] {
  const c = config.default_command;
  if (c === undefined) return [];
  return typeof c === 'string' ? ['/bin/sh', '-c', c] : c;
}

export const DEFAULT_CONFIG: FuxConfig = configSchema.parse({});

export const CONFIG_FILE_NAME = 'config.toml';

export function configFile(configDir: string): string {
  return path.join(configDir, CONFIG_FILE_NAME);
}

/** A config file that cannot be used; each problem is `FILE:LINE: key: what is wrong`. */
export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

function keyName(parts: readonly PropertyKey[]): string {
  return parts
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

function located(file: string, text: string, keyPath: readonly PropertyKey[]): string {
  const line = tomlKeyLine(
    text,
    keyPath.filter((part): part is string | number => typeof part !== 'symbol'),
  );
  return line === undefined ? file : `${file}:${line}`;
}

function describeIssue(file: string, text: string, issue: z.core.$ZodIssue, raw: unknown): string[] {
  if (issue.code === 'unrecognized_keys') {
    // One line per key, each where it is written.
    return issue.keys.map((key) => {
      const keyPath = [...issue.path, key];
      return `${located(file, text, keyPath)}: ${keyName(keyPath)}: unknown key (docs/config.md lists the keys)`;
    });
  }
  if (issue.code === 'invalid_union') {
    // Say what is wrong with the form the value was meant to have, not that it has none of them.
    const branch = closestBranch(issue.errors);
    if (branch)
      return branch.flatMap((i) =>
        describeIssue(file, text, { ...i, path: [...issue.path, ...i.path] }, raw),
      );
  }
  const key = keyName(issue.path);
  return [`${located(file, text, issue.path)}: ${key === '' ? '' : `${key}: `}${issueText(issue, raw)}`];
}

/** Of a union's branches, the one the value comes closest to: fewest problems, not of another type altogether. */
function closestBranch(branches: z.core.$ZodIssue[][]): z.core.$ZodIssue[] | undefined {
  const near = branches.filter(
    (b) => !(b.length === 1 && b[0]!.code === 'invalid_type' && b[0]!.path.length === 0),
  );
  return near.sort((a, b) => a.length - b.length)[0];
}

/** Parses config text; `file` names the source in errors. */
export function parseConfig(text: string, file: string): FuxConfig {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    if (!isTomlError(error)) throw error;
    const message = error.message.split('\n')[0] ?? error.message;
    throw new ConfigError(file, [`${file}:${error.line}:${error.column}: ${message}`]);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      file,
      parsed.error.issues.flatMap((issue) => describeIssue(file, text, issue, raw)),
    );
  }
  return parsed.data;
}

/** A config is a few KiB written by hand: a file of more is not one (and is not read into memory). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Bytes that are not UTF-8 (TOML is UTF-8), placed like any other problem: file, line, key. */
function notUtf8Problem(file: string, bytes: Buffer, error: NotUtf8): string {
  // Decoded leniently only to find the key the line belongs to.
  const key = tomlKeyAt(bytes.toString('utf8'), error.line);
  return `${file}:${error.line}: ${key === undefined ? '' : `${keyName(key)}: `}not valid UTF-8; save the file as UTF-8`;
}

/** Reads the config file; a missing file is the defaults, an unreadable or bad one a ConfigError. */
export function loadConfig(file: string): FuxConfig {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_CONFIG_BYTES).bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_CONFIG;
    if (error instanceof UnreadableFile) {
      throw new ConfigError(file, [
        `${error.message}; the config is read from a regular file of at most ${MAX_CONFIG_BYTES} bytes`,
      ]);
    }
    throw new ConfigError(file, [`${file}: cannot read it: ${systemReason(error)}`]);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes, file);
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    throw new ConfigError(file, [notUtf8Problem(file, bytes, error)]);
  }
  return parseConfig(text, file);
}
