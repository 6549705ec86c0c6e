/**
 * The largest inputs the server accepts and the most state it keeps, so that every reply has a
 * size it can always be sent in (a frame is at most 1 MiB, DESIGN.md §5) and no client can grow the
 * server without end. docs/protocol.md lists them ("Limits"); the control API's schemas
 * (src/server/schemas.ts) and the attach protocol's (attach.ts) are built from these.
 */
import { z } from 'zod';

/** Workspace names, status segment names, key names: labels, as tmux's session names are. */
export const MAX_NAME_CHARS = 64;

/** A working directory: Linux's PATH_MAX. */
export const MAX_PATH_CHARS = 4096;

/** A command's words, and their characters in all (tmux passes a command in one 16 KiB message). */
export const MAX_ARGV_ITEMS = 1024;
export const MAX_ARGV_CHARS = 64 * 1024;

/** An environment's variables, one variable (Linux's MAX_ARG_STRLEN), and all of them together. */
export const MAX_ENV_VARS = 4096;
export const MAX_ENV_VAR_CHARS = 128 * 1024;
export const MAX_ENV_CHARS = 256 * 1024;

/** Status segments per workspace, and the text of one: a status line is one row. */
export const MAX_STATUS_SEGMENTS = 32;
export const MAX_STATUS_TEXT_CHARS = 1024;

/** Workspaces one server holds (empty ones included: `workspace new` keeps them). */
export const MAX_WORKSPACES = 1024;

/** An attached client's id as the server makes it (12 hex digits), with room to spare. */
export const MAX_CLIENT_ID_CHARS = 64;

/**
 * A `list` reply holds at most about this many bytes of workspaces, tabs and panes; the rest comes
 * in further pages (`from`: the page's `next`). Well inside a frame, so the largest pane the limits
 * above allow (a 64 KiB command of characters JSON escapes sixfold) always fits beside a workspace's
 * status.
 */
export const LIST_PAGE_BYTES = 768 * 1024;

/** A name: not empty, at most MAX_NAME_CHARS. */
export const nameSchema = z.string().min(1).max(MAX_NAME_CHARS);

export const cwdSchema = z.string().max(MAX_PATH_CHARS);

function chars(words: readonly string[]): number {
  let n = 0;
  for (const word of words) n += word.length;
  return n;
}

export const argvSchema = z
  .array(z.string().max(MAX_ARGV_CHARS))
  .max(MAX_ARGV_ITEMS)
  .refine((argv) => chars(argv) <= MAX_ARGV_CHARS, `must be at most ${MAX_ARGV_CHARS} characters in all`);

export const envSchema = z
  .record(z.string().min(1).max(MAX_ENV_VAR_CHARS), z.string().max(MAX_ENV_VAR_CHARS))
  .refine((env) => Object.keys(env).length <= MAX_ENV_VARS, `must have at most ${MAX_ENV_VARS} variables`)
  .refine(
    (env) => chars(Object.keys(env)) + chars(Object.values(env)) <= MAX_ENV_CHARS,
    `must be at most ${MAX_ENV_CHARS} characters in all, names and values`,
  );

export const clientIdSchema = z.string().min(1).max(MAX_CLIENT_ID_CHARS);

/** The limits as docs/protocol.md states them. */
export const LIMIT_LINES: readonly string[] = [
  `names (workspaces, status segments, keys): 1–${MAX_NAME_CHARS} characters`,
  `\`cwd\`: at most ${MAX_PATH_CHARS} characters`,
  `\`argv\`: at most ${MAX_ARGV_ITEMS} words and ${MAX_ARGV_CHARS} characters in all`,
  `\`env\`: at most ${MAX_ENV_VARS} variables, ${MAX_ENV_VAR_CHARS} characters a name or value, ${MAX_ENV_CHARS} in all`,
  `status segments: at most ${MAX_STATUS_SEGMENTS} per workspace, ${MAX_STATUS_TEXT_CHARS} characters of text each`,
  `workspaces: at most ${MAX_WORKSPACES} per server`,
  `\`list\`: about ${LIST_PAGE_BYTES / 1024} KiB a page (see \`list\`)`,
];
