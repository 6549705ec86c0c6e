import { TRPCError, type TRPCDefaultErrorShape } from '@trpc/server';

/** One problem a schema reports; zod and every Standard Schema validator give this shape. */
interface SchemaIssue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
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

function describeIssue(issue: SchemaIssue): string {
  const path = (issue.path ?? [])
    .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
    .join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * A router's `errorFormatter` for a socket that anyone on the machine may script (DESIGN.md §5):
 * a code and a readable message, never a stack trace or a path inside the server.
 * - schema failures read `name: Invalid input: expected string, received number; …` instead of
 *   the validator's pretty-printed JSON;
 * - an error the server did not mean to throw (anything but a TRPCError) keeps its details for the
 *   server's `onError` log and reaches the client as a plain internal error;
 * - `data.stack` is dropped even when the router was created with `isDev`.
 */
export function errorFormatter({
  shape,
  error,
}: {
  shape: TRPCDefaultErrorShape;
  error: TRPCError;
}): TRPCDefaultErrorShape {
  const data = { ...shape.data };
  delete data.stack;
  return { ...shape, message: clientMessage(error, shape.message), data };
}

function clientMessage(error: TRPCError, message: string): string {
  const issues = error.code === 'BAD_REQUEST' ? schemaIssues(error.cause) : undefined;
  if (issues) return `invalid input: ${issues.map(describeIssue).join('; ')}`;
  const unexpected =
    error.code === 'INTERNAL_SERVER_ERROR' &&
    error.cause !== undefined &&
    !(error.cause instanceof TRPCError);
  return unexpected ? 'internal server error (the server log has the details)' : message;
}
