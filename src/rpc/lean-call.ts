import {
  getTRPCErrorFromUnknown,
  TRPCError,
  type AnyTRPCRouter,
  type inferRouterContext,
} from '@trpc/server';

type ProcedureType = 'query' | 'mutation' | 'subscription';

/** The parts of a standard schema (zod's included) the lean call validates with. */
interface StandardSchema {
  '~standard': {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}
type StandardResult = { value: unknown; issues?: undefined } | { issues: readonly unknown[] };

/** A middleware as a built procedure holds it: tRPC marks its input and output validators. */
interface MiddlewareFn {
  (opts: never): unknown;
  _type?: string;
}

/** The fields of tRPC 11's built procedure definition (`procedure._def`) read here. */
export interface ProcedureDef {
  type: ProcedureType;
  meta?: unknown;
  inputs: unknown[];
  output?: unknown;
  middlewares: MiddlewareFn[];
  resolver?: (opts: ResolverOptions) => unknown;
}

interface ResolverOptions {
  ctx: unknown;
  input: unknown;
  path: string;
  type: ProcedureType;
  signal: AbortSignal | undefined;
  meta: unknown;
  batchIndex: number;
  getRawInput(): Promise<unknown>;
}

/** What a lean call gives: the resolver's (validated) result, or the error it failed with. */
export type LeanOutcome = { ok: true; data: unknown } | { ok: false; error: TRPCError };

/**
 * `fallback`: the input did not validate. Nothing has run; the caller calls the procedure through
 * tRPC's chain, which fails the same way and builds the canonical error (with the validator's
 * issues) that every client knows.
 */
export type LeanResult = LeanOutcome | 'fallback' | Promise<LeanOutcome>;

export interface LeanCallOptions<TRouter extends AnyTRPCRouter> {
  ctx: inferRouterContext<TRouter>;
  path: string;
  input: unknown;
  signal: AbortSignal | undefined;
}

/** A procedure the server may call without tRPC's middleware chain; see leanProcedure. */
export type LeanProcedure<TRouter extends AnyTRPCRouter> = (options: LeanCallOptions<TRouter>) => LeanResult;

function isStandardSchema(value: unknown): value is StandardSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    '~standard' in value &&
    typeof (value as StandardSchema)['~standard']?.validate === 'function'
  );
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}

/** The built definition of the procedure at `path` (its type, meta, validators, resolver), if there is one. */
export function procedureDef(router: AnyTRPCRouter, path: string): ProcedureDef | undefined {
  const procedures = router._def.procedures as Record<string, unknown>;
  if (!Object.hasOwn(procedures, path)) return undefined;
  // A built procedure is a function carrying its definition; a nested router is an object.
  const candidate: unknown = procedures[path];
  return typeof candidate === 'function' ? (candidate as { _def?: ProcedureDef })._def : undefined;
}

/**
 * A procedure whose chain is only tRPC's own validators and its resolver, called as that chain
 * would call it: the input validated, the resolver run, its result validated against the output
 * schema. What the chain adds around that (five async frames, two object spreads per middleware,
 * a promise per step) costs ~0.1 ms per call on this project's machines when it runs once after a
 * pause, as a keystroke does (the code and data are out of the caches by then), for nothing a
 * procedure without middlewares of its own uses. A synchronous resolver is run synchronously, so a
 * keystroke reaches the pty in the turn its bytes arrive.
 *
 * Undefined for a procedure with middlewares of its own (they may change the context, or check and
 * throw), or validators that are not standard schemas: those go through tRPC's chain.
 */
export function leanProcedure<TRouter extends AnyTRPCRouter>(
  router: TRouter,
  path: string,
  type: ProcedureType,
): LeanProcedure<TRouter> | undefined {
  const def = procedureDef(router, path);
  if (def === undefined || def.type !== type || typeof def.resolver !== 'function') return undefined;
  const { middlewares, inputs } = def;
  // tRPC ends the chain with the middleware that calls the resolver; all others must be validators.
  const own = middlewares.slice(0, -1).some((m: MiddlewareFn) => m._type !== 'input' && m._type !== 'output');
  if (own || middlewares.at(-1)?._type !== undefined || inputs.length > 1) return undefined;
  const input = inputs[0];
  const output = def.output;
  if (
    (input !== undefined && !isStandardSchema(input)) ||
    (output !== undefined && !isStandardSchema(output))
  )
    return undefined;
  const resolver = def.resolver;
  const { meta } = def;

  const finish = (data: unknown): LeanOutcome | Promise<LeanOutcome> => {
    if (output === undefined) return { ok: true, data };
    const checked = output['~standard'].validate(data);
    return isPromiseLike(checked) ? Promise.resolve(checked).then(outputOutcome) : outputOutcome(checked);
  };
  const run = (options: LeanCallOptions<TRouter>, value: unknown): LeanOutcome | Promise<LeanOutcome> => {
    const raw = options.input;
    let data: unknown;
    try {
      data = resolver({
        ctx: options.ctx,
        input: value,
        path,
        type,
        signal: options.signal,
        meta,
        batchIndex: 0,
        getRawInput: () => Promise.resolve(raw),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause) };
    }
    if (!isPromiseLike(data)) return finish(data);
    return Promise.resolve(data).then(finish, (cause: unknown) => ({
      ok: false,
      error: getTRPCErrorFromUnknown(cause),
    }));
  };

  return (options) => {
    if (input === undefined) return run(options, undefined);
    const checked = input['~standard'].validate(options.input);
    if (!isPromiseLike(checked)) return checked.issues ? 'fallback' : run(options, checked.value);
    // An asynchronous validator: rare, and not worth a second path; tRPC's chain runs it.
    return 'fallback';
  };
}

function outputOutcome(result: StandardResult): LeanOutcome {
  if (!result.issues) return { ok: true, data: result.value };
  return {
    ok: false,
    error: new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
      cause: new Error(`the result does not match the output schema: ${JSON.stringify(result.issues)}`),
    }),
  };
}
