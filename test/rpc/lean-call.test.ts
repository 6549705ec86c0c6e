import { initTRPC, TRPCError } from '@trpc/server';
import { z } from 'zod';
import { leanProcedure, type LeanOutcome, type LeanResult } from '../../src/rpc/lean-call';

const t = initTRPC.context<{ calls: string[] }>().create({ isDev: false });

const router = t.router({
  add: t.procedure
    .input(z.object({ a: z.number(), b: z.number().default(10) }))
    .output(z.object({ sum: z.number() }))
    .mutation(({ ctx, input }) => {
      ctx.calls.push(`add ${input.a} ${input.b}`);
      return { sum: input.a + input.b };
    }),
  noInput: t.procedure.query(({ ctx }) => ctx.calls.length),
  later: t.procedure.input(z.object({ n: z.number() })).query(async ({ input }) => {
    await new Promise((resolve) => setImmediate(resolve));
    return input.n * 2;
  }),
  refuse: t.procedure.query((): string => {
    throw new TRPCError({ code: 'NOT_FOUND', message: 'no pane 7' });
  }),
  crash: t.procedure.query((): string => {
    throw new Error('disk on fire');
  }),
  wrongShape: t.procedure.output(z.object({ ok: z.boolean() })).query(() => ({ ok: 'yes' }) as never),
  guarded: t.procedure
    .use(({ next }) => next())
    .input(z.object({}))
    .query(() => 'guarded'),
  nested: t.router({ deep: t.procedure.query(() => 'deep') }),
  ticks: t.procedure.subscription(async function* () {
    yield 1;
  }),
});

function call(
  path: string,
  type: 'query' | 'mutation' | 'subscription',
  input: unknown,
  calls: string[] = [],
): LeanResult {
  const lean = leanProcedure(router, path, type);
  if (!lean) throw new Error(`${path} is not lean`);
  return lean({ ctx: { calls }, path, input, signal: undefined });
}

function settled(result: LeanResult): LeanOutcome {
  if (result === 'fallback' || result instanceof Promise)
    throw new Error(`expected an outcome, got ${String(result)}`);
  return result;
}

describe('a lean procedure call (no middleware chain)', () => {
  it('runs a synchronous resolver at once with the validated input (defaults applied) and checks its output', () => {
    const calls: string[] = [];
    const outcome = settled(call('add', 'mutation', { a: 1 }, calls));
    expect(calls).toEqual(['add 1 10']);
    expect(outcome).toEqual({ ok: true, data: { sum: 11 } });
    expect(settled(call('noInput', 'query', undefined, ['x']))).toEqual({ ok: true, data: 1 });
  });

  it('leaves input that does not validate to the chain, without running the resolver', () => {
    const calls: string[] = [];
    expect(call('add', 'mutation', { a: 'one' }, calls)).toBe('fallback');
    expect(call('add', 'mutation', undefined, calls)).toBe('fallback');
    expect(calls).toEqual([]);
  });

  it('resolves an asynchronous resolver later', async () => {
    const result = call('later', 'query', { n: 21 });
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual({ ok: true, data: 42 });
  });

  it('fails with the resolver’s TRPCError as it is, and any other error as INTERNAL_SERVER_ERROR with it as cause', () => {
    const refused = settled(call('refuse', 'query', undefined));
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('NOT_FOUND');
    expect(refused.error.message).toBe('no pane 7');
    const crashed = settled(call('crash', 'query', undefined));
    if (crashed.ok) throw new Error('crash succeeded');
    expect(crashed.error.code).toBe('INTERNAL_SERVER_ERROR');
    expect((crashed.error.cause as Error).message).toBe('disk on fire');
  });

  it('fails a result that does not match the output schema as tRPC does', () => {
    const outcome = settled(call('wrongShape', 'query', undefined));
    if (outcome.ok) throw new Error('a wrong shape passed');
    expect(outcome.error.code).toBe('INTERNAL_SERVER_ERROR');
    expect(outcome.error.message).toBe('Output validation failed');
  });

  it('is not offered for a procedure with a middleware of its own, the wrong type, a router or an unknown path', () => {
    expect(leanProcedure(router, 'guarded', 'query')).toBeUndefined();
    expect(leanProcedure(router, 'add', 'query')).toBeUndefined();
    expect(leanProcedure(router, 'nested', 'query')).toBeUndefined();
    expect(leanProcedure(router, 'missing', 'query')).toBeUndefined();
    expect(leanProcedure(router, 'toString', 'query')).toBeUndefined();
    expect(leanProcedure(router, 'nested.deep', 'query')).toBeDefined();
    expect(leanProcedure(router, 'ticks', 'subscription')).toBeDefined();
  });
});
