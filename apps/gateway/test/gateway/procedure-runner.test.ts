import type { ApiContext } from '@commerce/api';
import { AppError } from '@commerce/core';
import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runProcedure } from '../../src/procedure-runner.ts';

// A context of the gateway's shape is not needed: both callers only pass it through the middlewares.
type Ctx = { who: string; trail: string[] };
const t = initTRPC.context<Ctx>().meta<{ tag: string }>().create();

const withRole = t.middleware(({ ctx, next }) =>
  next({ ctx: { role: 'owner', trail: [...ctx.trail, 'role'] } }),
);
const seesMeta = t.middleware(({ meta, ctx, next }) =>
  next({ ctx: { trail: [...ctx.trail, `meta:${meta?.tag}`] } }),
);
const doubles = t.middleware(async ({ getRawInput, next }) => {
  const raw = (await getRawInput()) as { n?: number };
  return next({ getRawInput: async () => ({ n: (raw.n ?? 0) * 2 }) });
});

const router = t.router({
  echo: t.procedure
    .meta({ tag: 'echo' })
    .use(withRole)
    .use(seesMeta)
    .input(z.object({ n: z.number().int() }))
    .output(
      z.object({
        n: z.number(),
        who: z.string(),
        role: z.string(),
        trail: z.array(z.string()),
        path: z.string(),
        type: z.string(),
      }),
    )
    // `type` is passed at run time, though tRPC's resolver options do not declare it.
    .query((opts) => {
      const { input, ctx, path } = opts;
      const { type } = opts as unknown as { type: string };
      return { n: input.n, who: ctx.who, role: ctx.role, trail: ctx.trail, path, type };
    }),
  doubled: t.procedure
    .use(doubles)
    .input(z.object({ n: z.number() }))
    .mutation(({ input }) => input.n),
  replacesInput: t.procedure
    .input(z.object({ n: z.number() }))
    .use(({ next }) => next({ input: { n: 42 } }))
    .query(({ input }) => input.n),
  refuses: t.procedure
    .use(() => {
      throw AppError.notFound('No such thing');
    })
    .query(() => 'never'),
  forgetsNext: t.procedure.use((async () => undefined) as never).query(() => 'never'),
  badOutput: t.procedure.output(z.object({ ok: z.literal(true) })).query(() => ({ ok: false }) as never),
  throwsInResolver: t.procedure.query(() => {
    throw new Error('boom');
  }),
});

const ctx = (): Ctx => ({ who: 'ann', trail: ['start'] });
type Outcome = { data: unknown } | { error: { name: string; code: string; message: string; cause: unknown } };

async function settle(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { data: await call() };
  } catch (error) {
    const trpc = error as TRPCError;
    return {
      error: { name: trpc.name, code: trpc.code, message: trpc.message, cause: trpc.cause?.constructor },
    };
  }
}

type Path = keyof typeof router._def.procedures;
/** The same call through tRPC's own caller and through `runProcedure`. */
async function both(path: Path, type: 'query' | 'mutation', input: unknown): Promise<[Outcome, Outcome]> {
  const caller = t.createCallerFactory(router)(ctx());
  const viaTrpc = await settle(() => (caller[path] as (input: unknown) => Promise<unknown>)(input));
  const viaRunner = await settle(() =>
    runProcedure(router._def.procedures[path], {
      path,
      type,
      ctx: ctx() as unknown as ApiContext,
      getRawInput: async () => input,
      signal: undefined,
      batchIndex: 0,
    }),
  );
  return [viaTrpc, viaRunner];
}

describe('runProcedure', () => {
  it('merges each middleware’s context, passes meta, path and type, and validates input and output', async () => {
    const [viaTrpc, viaRunner] = await both('echo', 'query', { n: 3 });
    expect(viaRunner).toEqual({
      data: {
        n: 3,
        who: 'ann',
        role: 'owner',
        trail: ['start', 'role', 'meta:echo'],
        path: 'echo',
        type: 'query',
      },
    });
    expect(viaRunner).toEqual(viaTrpc);
  });

  it('refuses invalid input with the same BAD_REQUEST tRPC gives', async () => {
    const [viaTrpc, viaRunner] = await both('echo', 'query', { n: 'three' });
    expect(viaRunner).toMatchObject({ error: { name: 'TRPCError', code: 'BAD_REQUEST' } });
    expect(viaRunner).toEqual(viaTrpc);
  });

  it('takes a raw input a middleware replaces, and an input it passes on', async () => {
    const doubled = await both('doubled', 'mutation', { n: 4 });
    expect(doubled[1]).toEqual({ data: 8 });
    expect(doubled[1]).toEqual(doubled[0]);
    const replaced = await both('replacesInput', 'query', { n: 1 });
    expect(replaced[1]).toEqual({ data: 42 });
    expect(replaced[1]).toEqual(replaced[0]);
  });

  it('throws what a middleware or resolver throws, wrapped in a TRPCError as tRPC does', async () => {
    const refused = await both('refuses', 'query', undefined);
    expect(refused[1]).toEqual({
      error: { name: 'TRPCError', code: 'INTERNAL_SERVER_ERROR', message: 'No such thing', cause: AppError },
    });
    expect(refused[1]).toEqual(refused[0]);
    const thrown = await both('throwsInResolver', 'query', undefined);
    expect(thrown[1]).toMatchObject({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'boom' } });
    expect(thrown[1]).toEqual(thrown[0]);
  });

  it('fails a chain that returns no result, and an output its schema refuses, as tRPC does', async () => {
    const forgot = await both('forgetsNext', 'query', undefined);
    expect(forgot[1]).toMatchObject({
      error: { code: 'INTERNAL_SERVER_ERROR', message: expect.stringContaining('No result') },
    });
    expect(forgot[1]).toEqual(forgot[0]);
    const bad = await both('badOutput', 'query', undefined);
    expect(bad[1]).toMatchObject({
      error: { code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' },
    });
    expect(bad[1]).toEqual(bad[0]);
  });

  it('keeps the error a TRPCError instance', async () => {
    await expect(
      runProcedure(router._def.procedures.refuses, {
        path: 'refuses',
        type: 'query',
        ctx: ctx() as unknown as ApiContext,
        getRawInput: async () => undefined,
        signal: undefined,
        batchIndex: 0,
      }),
    ).rejects.toBeInstanceOf(TRPCError);
  });
});
