import type { ApiContext } from '@commerce/api';
import { type AnyProcedure, getTRPCErrorFromUnknown, TRPCError } from '@trpc/server';

/** What a REST route hands the procedure: tRPC's own call options for one call. */
export interface ProcedureCallOptions {
  path: string;
  type: 'query' | 'mutation';
  ctx: ApiContext;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

/** tRPC's middleware result: `ok` with the resolver's data, or the error as a TRPCError. */
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

interface NextOptions {
  ctx?: Record<string, unknown>;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}

interface ChainOptions {
  path: string;
  type: 'query' | 'mutation';
  ctx: Record<string, unknown>;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

type Middleware = (
  options: ChainOptions & { meta: unknown; next: (next?: NextOptions) => Promise<MiddlewareResult> },
) => Promise<MiddlewareResult>;

interface ProcedureDef {
  middlewares: Middleware[];
  meta: unknown;
}

/**
 * Calls a procedure the way tRPC's procedure caller does (`callRecursive` in @trpc/server's
 * initTRPC): each middleware in turn (the procedure's own, the input and output validation, the
 * resolver), `next({ ctx })` merging into the context, `next({ input })` replacing the input, a
 * throw becoming a failed result through `getTRPCErrorFromUnknown`, and the call throwing that
 * result's error, so a REST route sees exactly the errors and data a tRPC call would.
 *
 * Why not the procedure itself: tRPC's published build spreads the call options with a Babel
 * helper (`_objectSpread2`: a property descriptor and a `defineProperty` per key), twice per
 * middleware level and once more per context merge. On a public read that was 20 µs of CPU a
 * request, the largest single cost after the socket writes (docs/performance.md, "Session 6").
 * Here the same options are object literals of one shape. /trpc still goes through tRPC's own
 * caller; `procedure-runner.test.ts` checks the two agree.
 */
export function runProcedure(procedure: AnyProcedure, options: ProcedureCallOptions): Promise<unknown> {
  const def = procedure._def as unknown as ProcedureDef;
  return run(def, 0, {
    path: options.path,
    type: options.type,
    ctx: options.ctx as unknown as Record<string, unknown>,
    input: undefined,
    getRawInput: options.getRawInput,
    signal: options.signal,
    batchIndex: options.batchIndex,
  }).then((result) => {
    if (!result) {
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'No result from middlewares - did you forget to `return next()`?',
      });
    }
    if (!result.ok) throw result.error;
    return result.data;
  });
}

async function run(def: ProcedureDef, index: number, options: ChainOptions): Promise<MiddlewareResult> {
  try {
    const middleware = def.middlewares[index]!;
    return await middleware({
      path: options.path,
      type: options.type,
      ctx: options.ctx,
      input: options.input,
      getRawInput: options.getRawInput,
      signal: options.signal,
      batchIndex: options.batchIndex,
      meta: def.meta,
      next: (next) =>
        run(def, index + 1, {
          path: options.path,
          type: options.type,
          // Object.assign, not `{ ...ctx, ...next.ctx }`: V8 gives that spread a new map each call, and
          // every procedure's reads of the context would go megamorphic.
          ctx: next?.ctx ? Object.assign({}, options.ctx, next.ctx) : options.ctx,
          input: next && 'input' in next ? next.input : options.input,
          getRawInput: next?.getRawInput ?? options.getRawInput,
          signal: options.signal,
          batchIndex: options.batchIndex,
        }),
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause) };
  }
}
