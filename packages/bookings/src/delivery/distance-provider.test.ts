import { describe, expect, it } from 'vitest';
import { createDistanceProvider } from './create-distance-provider.ts';
import { DistanceUnavailableError, sandboxDistanceProvider } from './distance-provider.ts';
import {
  createGoogleDistanceProvider,
  GOOGLE_DISTANCE_MATRIX_URL,
  parseDistanceMatrix,
} from './google-distance.ts';
import { destinationAddressSchema } from './schemas.ts';

const ORIGIN = { line1: 'Rua Augusta 1', city: 'Lisboa', postalCode: '1100-048', country: 'PT' };
const destination = (postalCode: string) =>
  destinationAddressSchema.parse({ line1: 'Rua do Ouro 2', city: 'Lisboa', postalCode, country: 'pt' });

describe('sandbox distances', () => {
  it('answers the digits of the normalized postal code modulo 200,000 metres', async () => {
    const cases: [string, number][] = [
      ['1100-205', 1_100_205 % 200_000],
      ['  sw1a   1aa ', 11],
      ['00001', 1],
      ['123456789012345678901234567890', Number(BigInt('123456789012345678901234567890') % 200_000n)],
      ['200000', 0],
    ];
    for (const [code, meters] of cases) {
      expect(
        await sandboxDistanceProvider.distance({ origin: ORIGIN, destination: destination(code) }),
      ).toEqual({ status: 'RESOLVED', meters });
    }
  });

  it('cannot resolve 00000 or a code without digits, and is unreachable for 99999', async () => {
    for (const code of ['00000', ' 00000 ', 'ABC']) {
      expect(
        await sandboxDistanceProvider.distance({ origin: ORIGIN, destination: destination(code) }),
      ).toEqual({ status: 'UNRESOLVABLE' });
    }
    await expect(
      sandboxDistanceProvider.distance({ origin: ORIGIN, destination: destination('99999') }),
    ).rejects.toBeInstanceOf(DistanceUnavailableError);
  });
});

/** A fetch that records each URL and answers with `respond`. */
function fakeFetch(respond: (url: URL, init?: RequestInit) => Promise<Response> | Response) {
  const calls: { url: URL; init?: RequestInit | undefined }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    calls.push({ url, init });
    return respond(url, init);
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const matrix = (
  elementStatus: string,
  meters?: number,
  originAddress = 'Rua Augusta 1, Lisboa, Portugal',
) => ({
  status: 'OK',
  origin_addresses: [originAddress],
  destination_addresses: ['Somewhere'],
  rows: [
    {
      elements: [
        meters === undefined
          ? { status: elementStatus }
          : {
              status: elementStatus,
              distance: { value: meters, text: `${meters / 1000} km` },
              duration: { value: 60 },
            },
      ],
    },
  ],
});

describe('Google Distance Matrix adapter', () => {
  it('asks for the driving distance between both addresses with the key and reads metres', async () => {
    const { calls, fetchImpl } = fakeFetch(() => Response.json(matrix('OK', 12_345)));
    const google = createGoogleDistanceProvider({ apiKey: 'maps-key', timeoutMs: 3000, fetch: fetchImpl });
    const outcome = await google.distance({
      origin: ORIGIN,
      destination: { ...destination('1200-100'), state: 'Lisboa', line2: '3º esq' },
    });
    expect(outcome).toEqual({ status: 'RESOLVED', meters: 12_345 });
    expect(calls).toHaveLength(1);
    const { url, init } = calls[0]!;
    expect(`${url.origin}${url.pathname}`).toBe(GOOGLE_DISTANCE_MATRIX_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      origins: 'Rua Augusta 1, Lisboa, 1100-048, PT',
      destinations: 'Rua do Ouro 2, 3º esq, Lisboa, Lisboa 1200-100, PT',
      mode: 'driving',
      units: 'metric',
      key: 'maps-key',
    });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('maps element statuses: NOT_FOUND unresolvable, ZERO_RESULTS and MAX_ROUTE_LENGTH_EXCEEDED no route', () => {
    expect(parseDistanceMatrix(matrix('NOT_FOUND'))).toEqual({ status: 'UNRESOLVABLE' });
    expect(parseDistanceMatrix(matrix('ZERO_RESULTS'))).toEqual({ status: 'NO_ROUTE' });
    expect(parseDistanceMatrix(matrix('MAX_ROUTE_LENGTH_EXCEEDED'))).toEqual({ status: 'NO_ROUTE' });
    expect(parseDistanceMatrix(matrix('OK', 1500.4))).toEqual({ status: 'RESOLVED', meters: 1500 });
  });

  it('treats every other answer as the provider failing', () => {
    const failures: unknown[] = [
      { status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid.' },
      { status: 'OVER_QUERY_LIMIT' },
      { status: 'INVALID_REQUEST' },
      { status: 'OK', rows: [] },
      { status: 'OK', origin_addresses: ['x'], rows: [{ elements: [{ status: 'OK' }] }] },
      {
        status: 'OK',
        origin_addresses: ['x'],
        rows: [{ elements: [{ status: 'OK', distance: { value: -1 } }] }],
      },
      // The merchant's origin could not be placed: not the customer's address at fault.
      matrix('NOT_FOUND', undefined, ''),
      matrix('UNKNOWN_ERROR'),
      null,
      'not json',
    ];
    for (const body of failures) {
      expect(() => parseDistanceMatrix(body), JSON.stringify(body)).toThrow(DistanceUnavailableError);
    }
  });

  it('fails on an HTTP error, a network error, a bad body and a timeout', async () => {
    const responders: (() => Promise<Response> | Response)[] = [
      () => new Response('oops', { status: 500 }),
      () => {
        throw new TypeError('fetch failed');
      },
      () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ];
    for (const respond of responders) {
      const { fetchImpl } = fakeFetch(respond);
      const google = createGoogleDistanceProvider({ apiKey: 'k', timeoutMs: 3000, fetch: fetchImpl });
      await expect(
        google.distance({ origin: ORIGIN, destination: destination('1000-001') }),
      ).rejects.toBeInstanceOf(DistanceUnavailableError);
    }
    // A provider that never answers: the signal aborts the request after timeoutMs.
    const { fetchImpl } = fakeFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const slow = createGoogleDistanceProvider({ apiKey: 'k', timeoutMs: 20, fetch: fetchImpl });
    const started = performance.now();
    const failure = await slow
      .distance({ origin: ORIGIN, destination: destination('1000-001') })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(DistanceUnavailableError);
    expect((failure as Error).message).toContain('timed out');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is chosen by the configuration', () => {
    expect(
      createDistanceProvider({ distance: { provider: 'sandbox', apiKey: undefined, timeoutMs: 3000 } }),
    ).toBe(sandboxDistanceProvider);
    expect(
      createDistanceProvider({ distance: { provider: 'google', apiKey: 'k', timeoutMs: 3000 } }).kind,
    ).toBe('google');
    expect(() =>
      createDistanceProvider({ distance: { provider: 'google', apiKey: undefined, timeoutMs: 3000 } }),
    ).toThrow(/DISTANCE_API_KEY/);
  });
});
