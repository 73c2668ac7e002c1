import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from './openapi.ts';
import { listRestRoutes } from './rest-routes.ts';
import { appRouter } from './root.ts';
import { publicProcedure, router } from './trpc.ts';

type Json = Record<string, unknown>;

function documentOf(procedures: Parameters<typeof router>[0]) {
  const r = router(procedures);
  return buildOpenApiDocument(r, listRestRoutes(r), { version: 'test' }) as unknown as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };
}

/** Every schema object of the document that matches `test`, with where it is. */
function schemasWhere(document: unknown, test: (node: Json) => boolean): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${at}/${index}`);
    } else if (value !== null && typeof value === 'object') {
      if (test(value as Json)) found.push(at);
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${key}`);
    }
  };
  walk(document, '#');
  return found;
}

const nullableWithoutType = (node: Json) => node.nullable === true && !('type' in node);
const loneAllOf = (node: Json) =>
  Object.keys(node).length === 1 && Array.isArray(node.allOf) && node.allOf.length === 1;

describe('buildOpenApiDocument: schemas in forms OpenAPI 3.0 defines', () => {
  const Address = z.object({ city: z.string() }).meta({ id: 'TestAddress' });
  const Patch = z.object({ name: z.string() }).meta({ id: 'TestPatch' });
  const deposit = z.union([z.object({ percent: z.number() }), z.object({ amountInCents: z.number() })]);
  const output = z.object({
    address: Address.nullable().describe('Where, or null'),
    bare: Address.nullable(),
    deposit: deposit.nullable().default(null).describe('Either form, or null'),
  });
  const document = documentOf({
    read: publicProcedure
      .meta({ openapi: { method: 'POST', path: '/things' } })
      .input(z.object({ patch: Patch.optional() }))
      .output(output)
      .mutation(() => ({ address: null, bare: null, deposit: null })),
  });
  const operation = document.paths['/things']?.post as Json;
  const body = JSON.stringify(operation);
  const response = (
    (operation.responses as Record<string, Json>)['200'] as {
      content: { 'application/json': { schema: { properties: Record<string, Json> } } };
    }
  ).content['application/json'].schema;
  const nullOnly = { type: 'object', nullable: true, enum: [null] };

  it('says a nullable reference as "the reference or null", keeping its description', () => {
    expect(response.properties.address).toEqual({
      description: 'Where, or null',
      anyOf: [{ $ref: '#/components/schemas/TestAddress' }, nullOnly],
    });
    expect(response.properties.bare).toEqual({
      anyOf: [{ $ref: '#/components/schemas/TestAddress' }, nullOnly],
    });
  });

  it('adds null as one more alternative of a nullable union', () => {
    const union = response.properties.deposit as { anyOf: Json[]; default: unknown; description: string };
    expect(union.default).toBeNull();
    expect(union.description).toBe('Either form, or null');
    expect(union.anyOf).toHaveLength(3);
    expect(union.anyOf[2]).toEqual(nullOnly);
    expect(union).not.toHaveProperty('nullable');
  });

  it('uses a reference alone rather than an allOf of one reference', () => {
    expect(body).not.toContain('"allOf":[{"$ref":"#/components/schemas/TestPatch"}]');
    expect(body).toContain('"patch":{"$ref":"#/components/schemas/TestPatch"}');
  });

  it('leaves none of these forms, nor the generator’s unused error schemas, in the application’s document', () => {
    const full = buildOpenApiDocument(appRouter, listRestRoutes(appRouter), { version: 'test' });
    expect(schemasWhere(full, nullableWithoutType)).toEqual([]);
    expect(schemasWhere(full, loneAllOf)).toEqual([]);
    expect(Object.keys(full.components?.schemas ?? {}).filter((name) => name.startsWith('error.'))).toEqual(
      [],
    );
    expect(schemasWhere(full, (node) => JSON.stringify(node.enum) === '[null]').length).toBeGreaterThan(0);
  });
});

describe('buildOpenApiDocument: the idempotency key header', () => {
  it('is declared on exactly the operations that read it, required where the route requires it', () => {
    const full = buildOpenApiDocument(appRouter, listRestRoutes(appRouter), {
      version: 'test',
    }) as unknown as { paths: Record<string, Record<string, Json>> };
    const declared: Record<string, boolean> = {};
    const reusable: string[] = [];
    for (const [path, item] of Object.entries(full.paths))
      for (const [method, operation] of Object.entries(item)) {
        const header = ((operation.parameters ?? []) as Json[]).find(
          (parameter) => parameter.in === 'header' && parameter.name === 'x-idempotency-key',
        );
        if (header) declared[`${method.toUpperCase()} ${path}`] = header.required === true;
        if (JSON.stringify(operation.responses).includes('IDEMPOTENCY_KEY_REUSED'))
          reusable.push(`${method.toUpperCase()} ${path}`);
      }
    // Every route that can answer IDEMPOTENCY_KEY_REUSED reads the key; release and the checkout
    // page's read need the hold's.
    for (const operation of reusable) expect(declared).toHaveProperty([operation]);
    expect(declared['DELETE /public/booking-holds/{id}']).toBe(true);
    expect(declared['GET /public/booking-holds/{id}']).toBe(true);
    expect(declared['POST /merchant/bookings']).toBe(true);
    expect(declared['POST /merchant/bookings/{id}/cancel']).toBe(false);
    // Writes that do not read it (a catalog create, a public order, a sign-in link) do not declare it.
    expect(declared).not.toHaveProperty(['POST /merchant/items']);
    expect(declared).not.toHaveProperty(['POST /public/orders']);
    expect(declared).not.toHaveProperty(['POST /public/customer/auth/request-link']);
    // A webhook endpoint's create: a retried create would register (and deliver to) the receiver twice.
    expect(declared['POST /merchant/webhook-endpoints']).toBe(false);
    expect(Object.keys(declared)).toHaveLength(22);
  });
});
