import { TRPCError, type TRPCDefaultErrorShape } from '@trpc/server';

type PathSegment = PropertyKey | { key: PropertyKey };

/**
 * An error's message is at most this long, a procedure path or field name in one at most
 * MAX_NAME_CHARS, a value it quotes at most MAX_QUOTED_CHARS: what an error echoes of its request
 * (a name, a path, a value) is cut, so an error reply never grows with the request it answers,
 * nor does the server log's line.
 */
export const MAX_MESSAGE_CHARS = 2000;
const MAX_NAME_CHARS = 128;
const MAX_QUOTED_CHARS = 200;

/** `text` cut in its middle to `max` characters (and a note of how many were left out). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 5);
  return `${text.slice(0, max - tail)}… (${text.length - max} characters left out) …${text.slice(-tail)}`;
}

/**
 * One problem a schema reports. Every Standard Schema validator gives `message` and `path`; zod
 * adds the structured fields below, from which the readable text is made (zod's own text reads
 * "Invalid input: expected number, received string").
 */
export interface SchemaIssue {
  message: string;
  path?: readonly PathSegment[];
  code?: string;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  /** A union's issues, one list per alternative, with paths relative to the union. */
  errors?: readonly (readonly SchemaIssue[])[];
}

function schemaIssues(cause: unknown): SchemaIssue[] | undefined {
  if (typeof cause !== 'object' || cause === null || !('issues' in cause)) return undefined;
  const { issues } = cause;
  if (!Array.isArray(issues)) return undefined;
  const valid = issues.filter(
    (issue: unknown): issue is SchemaIssue =>
      typeof issue === 'object' && issue !== null && 'message' in issue && typeof issue.message === 'string',
  );
  return valid.length > 0 ? valid : undefined;
}

const segmentKey = (segment: PathSegment): PropertyKey =>
  typeof segment === 'object' ? segment.key : segment;

/** The part of the request's input an issue is about (undefined when it is absent). */
function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let value = input;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segmentKey(segment)];
  }
  return value;
}

/** A validator's type name as a reader says it: `int` is "an integer", `array` "a list". */
const TYPE_WORDS: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'a list',
  tuple: 'a list',
  null: 'null',
  undefined: 'nothing',
  bigint: 'a bigint',
};

const typeWord = (name: string): string => TYPE_WORDS[name] ?? `a ${name}`;

/** What the request sent, in the words of TYPE_WORDS; a number where an integer was due is shown. */
function sentWord(value: unknown, expected: string | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && expected === 'int') return String(value);
  return typeWord(typeof value);
}

/** A value as a message quotes it: JSON, cut to MAX_QUOTED_CHARS. */
const quote = (value: unknown): string => clipText(JSON.stringify(value) ?? 'nothing', MAX_QUOTED_CHARS);

const quoted = (values: readonly unknown[]): string => values.map(quote).join(', ');

/** What a union's alternatives expect, when each of them failed on the value itself. */
function unionExpects(issue: SchemaIssue): string | undefined {
  const wants: string[] = [];
  for (const alternative of issue.errors ?? []) {
    const [only] = alternative;
    if (alternative.length !== 1 || (only.path ?? []).length > 0) return undefined;
    if (only.code === 'invalid_type' && only.expected) wants.push(typeWord(only.expected));
    else if (only.code === 'invalid_value' && only.values) wants.push(`one of ${quoted(only.values)}`);
    else return undefined;
  }
  return wants.length > 0 ? wants.join(' or ') : undefined;
}

function bound(issue: SchemaIssue, atLeast: boolean): string | undefined {
  const limit = atLeast ? issue.minimum : issue.maximum;
  if (limit === undefined) return undefined;
  const exclusive = issue.inclusive === false;
  const n = Number(limit);
  switch (issue.origin) {
    case 'string':
      if (atLeast && n === 1 && !exclusive) return 'must not be empty';
      return `must be ${atLeast ? 'at least' : 'at most'} ${n} characters long`;
    case 'array':
    case 'set':
      if (atLeast && n === 1 && !exclusive) return 'must not be empty';
      return `must have ${atLeast ? 'at least' : 'at most'} ${n} items`;
    default:
      return `must be ${exclusive ? (atLeast ? 'more than' : 'less than') : atLeast ? 'at least' : 'at most'} ${n}`;
  }
}

/**
 * An issue as one readable sentence, without its field: `expected a number, got a string`; the
 * validator's own message when no better one is known. `input` is what was validated.
 */
export function issueText(issue: SchemaIssue, input: unknown): string {
  const value = valueAt(input, issue.path ?? []);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === undefined) break;
      return value === undefined
        ? `missing, expected ${typeWord(issue.expected)}`
        : `expected ${typeWord(issue.expected)}, got ${sentWord(value, issue.expected)}`;
    case 'invalid_value':
      if (!issue.values) break;
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${quoted(issue.values)}, got ${quote(value)}`;
    case 'unrecognized_keys':
      if (!issue.keys) break;
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${quoted(issue.keys)}`;
    case 'invalid_union': {
      const wants = unionExpects(issue);
      if (wants === undefined) break;
      return value === undefined
        ? `missing, expected ${wants}`
        : `expected ${wants}, got ${sentWord(value, undefined)}`;
    }
    case 'too_small':
    case 'too_big':
      return bound(issue, issue.code === 'too_small') ?? issue.message;
  }
  return issue.message;
}

function describeIssue(issue: SchemaIssue, input: unknown): string {
  const path = issue.path ?? [];
  const name = path.map((segment) => clipText(String(segmentKey(segment)), MAX_NAME_CHARS)).join('.');
  const text = issueText(issue, input);
  return name === '' ? `input: ${text}` : `${name}: ${text}`;
}

/** tRPC's words for a path that names no procedure of the type asked for. */
const NO_PROCEDURE = /^No "(\w+)"-procedure on path "(.*)"$/s;

/**
 * A router's `errorFormatter` for a socket that anyone on the machine may script (DESIGN.md §5):
 * a code and a readable message, never a stack trace or a path inside the server.
 * - schema failures read `id: expected a number, got a string; keys: must not be empty` (each
 *   problem with its field, from the request's input) instead of the validator's JSON;
 * - a path that names no procedure reads `no query procedure "foo"`;
 * - an error the server did not mean to throw (anything but a TRPCError) keeps its details for the
 *   server's `onError` log and reaches the client as a plain internal error;
 * - `data.stack` is dropped even when the router was created with `isDev`.
 */
export function errorFormatter({
  shape,
  error,
  input,
}: {
  shape: TRPCDefaultErrorShape;
  error: TRPCError;
  input?: unknown;
}): TRPCDefaultErrorShape {
  const data = { ...shape.data };
  delete data.stack;
  if (data.path !== undefined) data.path = clipText(data.path, MAX_NAME_CHARS);
  return { ...shape, message: clipText(clientMessage(error, shape.message, input), MAX_MESSAGE_CHARS), data };
}

/**
 * The server log's line for a failed call: its procedure, its code and the message the client got
 * (an unexpected error's own message instead), cut as replies are; never a stack, never the input.
 */
export function errorLogLine(error: TRPCError, path: string | undefined, input: unknown): string {
  const message = isUnexpected(error) ? error.message : clientMessage(error, error.message, input);
  return `${clipText(path ?? '-', MAX_NAME_CHARS)}: ${error.code} ${clipText(message, MAX_MESSAGE_CHARS)}`;
}

/** An error the server did not mean to throw (anything but a TRPCError). */
function isUnexpected(error: TRPCError): boolean {
  return (
    error.code === 'INTERNAL_SERVER_ERROR' && error.cause !== undefined && !(error.cause instanceof TRPCError)
  );
}

function clientMessage(error: TRPCError, message: string, input: unknown): string {
  const issues = error.code === 'BAD_REQUEST' ? schemaIssues(error.cause) : undefined;
  if (issues) return issues.map((issue) => describeIssue(issue, input)).join('; ');
  const noProcedure = error.code === 'NOT_FOUND' ? NO_PROCEDURE.exec(message) : null;
  if (noProcedure) return `no ${noProcedure[1]} procedure "${clipText(noProcedure[2]!, MAX_NAME_CHARS)}"`;
  return isUnexpected(error) ? 'internal server error (the server log has the details)' : message;
}
