import { TRPCError, type TRPCDefaultErrorShape } from '@trpc/server';
import { z } from 'zod';
import { errorFormatter } from '../../src/rpc/error-formatter';

function shapeOf(error: TRPCError): TRPCDefaultErrorShape {
  return {
    message: error.message,
    code: -32600,
    data: { code: error.code, httpStatus: 400, path: 'add', stack: error.stack ?? 'a stack' },
  };
}

describe('errorFormatter', () => {
  /** The message a request with `input` gets from a schema failure of `schema`. */
  function messageFor(schema: z.ZodType, input: unknown): string {
    const parsed = schema.safeParse(input);
    if (parsed.success) throw new Error('the input passed');
    const error = new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
    return errorFormatter({ shape: shapeOf(error), error, input }).message;
  }

  it('turns a schema failure into one readable line naming each bad field', () => {
    expect(
      messageFor(z.object({ a: z.number(), inner: z.object({ b: z.string() }) }), { a: 'x', inner: {} }),
    ).toBe('a: expected a number, got a string; inner.b: missing, expected a string');
  });

  it.each([
    ['a wrong type', z.object({ id: z.number() }), { id: 'one' }, 'id: expected a number, got a string'],
    ['a missing field', z.object({ id: z.number() }), {}, 'id: missing, expected a number'],
    ['no input at all', z.object({ id: z.number() }), undefined, 'input: missing, expected an object'],
    [
      'a fraction for an integer',
      z.object({ n: z.number().int() }),
      { n: 1.5 },
      'n: expected an integer, got 1.5',
    ],
    ['a list for a string', z.object({ s: z.string() }), { s: [] }, 's: expected a string, got a list'],
    ['null for a boolean', z.object({ b: z.boolean() }), { b: null }, 'b: expected a boolean, got null'],
    [
      'a value outside an enum',
      z.object({ d: z.enum(['h', 'v']) }),
      { d: 'x' },
      'd: expected one of "h", "v", got "x"',
    ],
    ['a number below its minimum', z.object({ n: z.number().min(0) }), { n: -1 }, 'n: must be at least 0'],
    ['a number above its maximum', z.object({ n: z.number().max(9) }), { n: 10 }, 'n: must be at most 9'],
    [
      'an empty list',
      z.object({ keys: z.array(z.string()).min(1) }),
      { keys: [] },
      'keys: must not be empty',
    ],
    ['an empty string', z.object({ s: z.string().min(1) }), { s: '' }, 's: must not be empty'],
    [
      'a list element',
      z.object({ keys: z.array(z.string()) }),
      { keys: ['a', 2] },
      'keys.1: expected a string, got a number',
    ],
    ['an unknown field', z.strictObject({ a: z.number() }), { a: 1, b: 2 }, 'input: unknown field "b"'],
    [
      'a union of a type and values',
      z.object({ t: z.union([z.number().int(), z.enum(['left', 'right'])]) }),
      { t: 'north' },
      't: expected a number or one of "left", "right", got a string',
    ],
  ])('%s', (_what, schema, input, message) => {
    expect(messageFor(schema, input)).toBe(message);
  });

  it('names a procedure that is not there in its own words', () => {
    const error = new TRPCError({ code: 'NOT_FOUND', message: 'No "query"-procedure on path "nope"' });
    expect(errorFormatter({ shape: shapeOf(error), error }).message).toBe('no query procedure "nope"');
  });

  it('never sends a stack trace, even from a router made with isDev', () => {
    const error = new TRPCError({ code: 'NOT_FOUND', message: 'no pane 7' });
    const formatted = errorFormatter({ shape: shapeOf(error), error });
    expect(formatted.data).toEqual({ code: 'NOT_FOUND', httpStatus: 400, path: 'add' });
  });

  it('keeps the message of an error the server threw on purpose', () => {
    const error = new TRPCError({ code: 'NOT_FOUND', message: 'no pane 7 in workspace main' });
    expect(errorFormatter({ shape: shapeOf(error), error }).message).toBe('no pane 7 in workspace main');
  });

  it('hides the message of an error nobody meant to throw, which may name server files', () => {
    const error = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      cause: new Error('EACCES: /srv/fux/state.json'),
    });
    const formatted = errorFormatter({ shape: shapeOf(error), error });
    expect(formatted.message).toBe('internal server error (the server log has the details)');
    expect(JSON.stringify(formatted)).not.toContain('/srv');
  });
});
