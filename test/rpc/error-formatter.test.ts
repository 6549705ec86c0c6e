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
  it('turns a schema failure into one readable line naming each bad field', () => {
    const parsed = z
      .object({ a: z.number(), inner: z.object({ b: z.string() }) })
      .safeParse({ a: 'x', inner: {} });
    const error = new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
    const formatted = errorFormatter({ shape: shapeOf(error), error });
    expect(formatted.message).toBe(
      'invalid input: a: Invalid input: expected number, received string; inner.b: Invalid input: expected string, received undefined',
    );
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
