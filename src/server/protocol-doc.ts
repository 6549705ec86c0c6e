import { z } from 'zod';
import { appRouter } from './router';
import { HOLD_REPLY_MS } from '../rpc/held-reply';
import type { ProcedureMeta } from './trpc';
import { eventSchemas, gapSchema } from './events';
import { LIMIT_LINES } from '../protocol/limits';
import { MAX_MESSAGE_CHARS } from '../rpc/error-formatter';

/**
 * docs/protocol.md, rendered from the router and the event schemas themselves, so the document
 * cannot drift from the API: `npm run docs` writes it and a test fails when it is stale.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  description?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  $ref?: string;
}

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  meta?: ProcedureMeta;
  inputs: z.ZodType[];
  output?: z.ZodType;
}

function typeOf(s: JsonSchema): string {
  if (s.$ref) return 'LayoutNode'; // the only recursive schema
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeOf).join(' \\| ');
  switch (s.type) {
    case 'array':
      return `${s.items ? typeOf(s.items) : 'unknown'}[]`;
    case 'object':
      if (s.properties) return `{ ${Object.keys(s.properties).join(', ')} }`;
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        return `{ [key]: ${typeOf(s.additionalProperties)} }`;
      }
      return 'object';
    case 'integer':
      return 'integer';
    case undefined:
      return 'any';
    default:
      return Array.isArray(s.type) ? s.type.join(' \\| ') : s.type;
  }
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  // Shared schemas are inlined; only the recursive layout tree becomes a $ref.
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input', cycles: 'ref' }) as JsonSchema;
}

/** Object fields, or the fields of an array's objects: where a table row descends. */
function nestedObject(s: JsonSchema): JsonSchema | undefined {
  if (s.type === 'object' && s.properties) return s;
  if (s.type === 'array' && s.items?.type === 'object' && s.items.properties) return s.items;
  return undefined;
}

function rangeOf(s: JsonSchema): string {
  if (s.maxLength !== undefined) return ` (≤ ${s.maxLength} characters)`;
  if (s.maxItems !== undefined) return ` (≤ ${s.maxItems} items)`;
  const big = (n: number | undefined): boolean => n === undefined || Math.abs(n) > 1e9;
  if (big(s.minimum) && big(s.maximum)) return '';
  return ` (${big(s.minimum) ? '…' : s.minimum}–${big(s.maximum) ? '…' : s.maximum})`;
}

/** One row per field, nested objects flattened as `outer.inner` (arrays as `outer[].inner`). */
function fieldRows(s: JsonSchema, prefix: string): string[] {
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).flatMap(([name, p]) => {
    const full = `${prefix}${name}`;
    const row = `| \`${full}\` | ${typeOf(p)}${rangeOf(p)} | ${required.has(name) ? 'yes' : 'no'} | ${p.description ?? ''} |`;
    const inner = nestedObject(p);
    return inner ? [row, ...fieldRows(inner, `${full}${p.type === 'array' ? '[]' : ''}.`)] : [row];
  });
}

function fieldTable(s: JsonSchema): string[] {
  if (!s.properties || Object.keys(s.properties).length === 0) return ['(no fields)', ''];
  return ['| field | type | required | meaning |', '| --- | --- | --- | --- |', ...fieldRows(s, ''), ''];
}

function procedureSection(path: string, def: ProcedureDef): string[] {
  const meta = def.meta;
  const lines = [`### \`${path}\` (${def.type})`, ''];
  if (meta)
    lines.push(
      `CLI: \`fux ${meta.verb}\`. ${meta.description[0].toUpperCase()}${meta.description.slice(1)}.`,
      '',
    );
  if (meta?.holdReply)
    lines.push(
      `On a connection with a subscription running, the reply may wait up to ${HOLD_REPLY_MS} ms for the next message to that connection (an event the call caused) and arrive right after it; without one it is sent at once.`,
      '',
    );
  lines.push('Input:', '', ...fieldTable(jsonSchema(def.inputs[0])));
  if (def.output) {
    lines.push('Output:', '', ...fieldTable(jsonSchema(def.output)));
  } else if (meta?.yields) {
    lines.push(
      meta.streams
        ? 'Output: a stream of `data` messages, each one:'
        : 'Output: one `data` message, then `stopped` (or an error):',
      '',
      ...fieldTable(jsonSchema(meta.yields)),
    );
  } else if (def.type === 'subscription') {
    lines.push('Output: a stream of events (below), one `data` message each.', '');
  }
  return lines;
}

function eventSection(type: string, schema: z.ZodType): string[] {
  const s = jsonSchema(schema);
  return [`### \`${type}\``, '', ...(s.description ? [s.description, ''] : []), ...fieldTable(s)];
}

const preamble = `# The fux control protocol

<!-- Generated by \`npm run docs\` from src/server/router.ts and src/server/events.ts; a test fails when it is stale. -->

The server listens on a unix socket (mode 0600, in a 0700 directory owned by you):
\`$FUX_SOCKET\` if set, else \`$XDG_RUNTIME_DIR/fux/fux.sock\`, else \`/tmp/fux-$UID/fux.sock\`
(macOS: \`~/Library/Caches/fux-runtime/fux/fux.sock\`). The CLI, the attach client and scripts all
speak this protocol; \`import { connect } from 'fux'\` gives a typed client for it.

Both sides check whom they talk to, as tmux does. The server and the client \`lstat\` the socket's
directory before they listen or connect and refuse anything but a real directory (not a symbolic
link) owned by you with no group or other permission bits; the client also refuses a socket file
owned by another uid, and, once connected, a server whose peer credentials (\`SO_PEERCRED\`,
\`getpeereid\`) name another uid, before it sends a byte. The server closes, unanswered, a
connection from a uid other than its own or root's. A client of your own (\`socat\` below) is
trusted to do the same checks or to know its socket.

## Framing

One JSON message per line (\`\\n\`-terminated), at most 1 MiB a line. Messages are tRPC's:

- request: \`{"id": 1, "method": "query" | "mutation" | "subscription", "params": {"path": "list", "input": {...}}}\`
- reply: \`{"id": 1, "result": {"type": "data", "data": ...}}\`
- error: \`{"id": 1, "error": {"message": "...", "code": -32004, "data": {"code": "NOT_FOUND", "httpStatus": 404, "path": "kill"}}}\`
- a subscription first answers \`{"id": 7, "result": {"type": "started"}}\`, then one \`data\` reply per
  event, until the client sends \`{"id": 7, "method": "subscription.stop"}\` or the connection closes
  (or the server ends it: \`{"type": "stopped"}\`, or an error; a subscriber too slow to keep up is
  disconnected, its last frame an \`id: null\` error saying why).

Every request carries an \`id\` (a number or string) and every reply carries the same \`id\`. A line
that is not JSON, or over 1 MiB, is answered with an error whose \`id\` is \`null\`; the connection
stays usable when the next line can be found, and is closed otherwise. Inputs are validated
(zod): a bad input gets a \`BAD_REQUEST\` error whose message names each bad field in one line,
e.g. \`id: expected a number, got a string\` or \`id: missing, expected a number; keys: must not be
empty\`; a path that names no procedure gets \`NOT_FOUND\` and \`no query procedure "foo"\`. Error
messages say what to do; they never carry stack traces, server paths or the validator's JSON.

Every request is answered. A reply that would not fit in a frame becomes a \`PAYLOAD_TOO_LARGE\`
error to the same \`id\` (and, for an \`id\` so long that even that cannot fit, an error with \`id\`
\`null\` that says so). An error message is at most ${MAX_MESSAGE_CHARS} characters: what it quotes of
the request (a name, a path, a value) is cut in the middle.

The one exception: a mutation sent without an \`id\` is a notification (JSON-RPC 2.0). The server
runs it in order with the other requests and sends no reply, not even an error (that goes to the
server log). \`attach.input\` is meant to be sent so: a keystroke then costs one line each way,
itself and its echo's frame. A client that sends notifications should not give its requests
negative ids (the server numbers notifications so).

From a shell:

\`\`\`sh
echo '{"id":1,"method":"query","params":{"path":"list","input":{}}}' | socat - UNIX-CONNECT:"$FUX_SOCKET"
\`\`\`

Every input takes an optional \`workspace\` where it applies: the named workspace, else the only one,
else \`main\`. \`new\`, \`split\` and \`tab.new\` create the workspace when it does not exist.

## Limits

Inputs past these are refused with a \`BAD_REQUEST\` (or, for state, \`PRECONDITION_FAILED\`) that
names the limit; they bound what the server keeps and make every reply fit in a frame:

${LIMIT_LINES.map((line) => `- ${line}`).join('\n')}

## Attaching

An attached client (\`fux attach\`, or \`fux connect\` over iroh) calls \`attach.session\` with the size of
its pane area and gets frames: the first has \`reset\`, this attachment's \`client\` id and the whole
state; each later one carries only what changed since the frame before. Frames are computed when the
connection can take more and at most 60 a second, so a slow client gets fewer, fuller frames, never
a backlog. \`view\` (layout, tabs, status, popup, keys) comes whenever it changed; \`panes[id]\` has a
pane's size when it changed (the client blanks it), its changed \`lines\` by row, its \`cursor\` and
input \`modes\`. A row is a list of runs: \`[style, text]\` is one cell per code point of \`text\`;
\`[style, text, width]\` is one cell holding \`text\` (a wide glyph, an emoji, a letter with combining
marks) \`width\` cells wide; cells after the last run are blank. \`style\` is an id whose SGR parameters
(e.g. \`1;38;2;255;0;0\`) came in an earlier or the same frame's \`styles\`; 0 is the default. Keys,
paste and mouse reports go to \`attach.input\`, key bindings and clicks to \`attach.action\`, size
changes to \`attach.resize\` (the last resize of any client wins), and copy mode reads
\`attach.history\`. A remote peer can call these and nothing else. A frame holds at most about 192 KiB
of \`view\` (a workspace with more tabs than that shows those nearest the active one) and 384 KiB of
rows with their styles; the rows past that come in the next frames.

## Procedures
`;

export function renderProtocolDoc(): string {
  // tRPC keeps each procedure's zod parsers on `_def`; they are ours, so they are zod schemas.
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>;
  const out = [preamble];
  for (const [path, p] of Object.entries(procedures)) out.push(...procedureSection(path, p._def));
  out.push(
    '## Events',
    '',
    'Every event has `type`, `workspace`, `seq` and `ts` (milliseconds since the epoch). `seq` is',
    'server-wide: every event but `pane.output` takes the next number (1, 2, 3, … since the server',
    'started), so in an unfiltered stream a hole is a lost event. `pane.output` nudges are outside the',
    'sequence: they carry the seq of the last sequenced event, are never replayed, and may be dropped',
    'or coalesced; losing one loses nothing but a hint to capture. The server keeps the last',
    '`event_history` sequenced events (config; default 4096): `subscribe` with `since: N` first',
    'replays those after N (through its filters), then goes on live, with no duplicate and no hole.',
    'If the history no longer holds N + 1, the stream starts with `events.gap` (from, to, lost).',
    'A subscriber that cannot keep up has `pane.output` nudges dropped first; one that falls more than',
    "its queue's length behind is disconnected: after the events already sent (however late it reads",
    'them), its last frame is an `id: null` error (`SERVICE_UNAVAILABLE`, "the server closed the',
    'connection: subscriber too slow … the last seq sent was N: resume with `fux subscribe --since N`",',
    'the command repeating its `-w` and event names). `fux subscribe` prints it on stderr and exits 1.',
    '',
  );
  for (const [type, schema] of Object.entries(eventSchemas)) out.push(...eventSection(type, schema));
  out.push(...eventSection('events.gap', gapSchema));
  out.push(
    '### `LayoutNode`',
    '',
    '`{ "pane": id }` or `{ "axis": "row" | "column", "ratio": r, "a": LayoutNode, "b": LayoutNode }`:',
    "a split's first child `a` takes `ratio` of its cells (left for `row`, top for `column`).",
    '',
    'A pane keeps at least 2 columns and 1 row of content (xterm.js makes no narrower terminal), plus a',
    'separator cell towards a neighbour. A split that would leave less is refused before anything starts',
    '(`PRECONDITION_FAILED`, "no space for a new pane: pane 9 of workspace main is 2x1, and splitting it',
    'side by side needs 5 columns; …"). A workspace sized smaller than its layout needs keeps the layout,',
    "as tmux does: the panes' rects in `list` and in the attach view then reach past the workspace's",
    '`cols` × `rows`, a client shows the part inside it, and the sizes come back when it grows again.',
    '',
  );
  return out.join('\n');
}
