import type { DistanceAddress, DistanceOutcome, DistanceProvider } from './distance-provider.ts';
import { DistanceUnavailableError } from './distance-provider.ts';

export const GOOGLE_DISTANCE_MATRIX_URL = 'https://maps.googleapis.com/maps/api/distancematrix/json';

/** One line a geocoder reads: `line1, line2, city, state postalCode, country`. */
export function addressLine(address: DistanceAddress): string {
  const region = [address.state, address.postalCode].filter(Boolean).join(' ');
  return [address.line1, address.line2, address.city, region, address.country].filter(Boolean).join(', ');
}

interface MatrixResponse {
  status?: unknown;
  origin_addresses?: unknown;
  rows?: { elements?: { status?: unknown; distance?: { value?: unknown } }[] }[];
}

/**
 * Reads a Distance Matrix answer for one origin and one destination.
 * Element `NOT_FOUND` with a geocoded origin is the destination's fault
 * (`UNRESOLVABLE`); `ZERO_RESULTS` and `MAX_ROUTE_LENGTH_EXCEEDED` mean no
 * driving route (`NO_ROUTE`). Any other status, an origin Google could not
 * place (the merchant's address, not the customer's), or an unexpected
 * shape is the provider failing.
 */
export function parseDistanceMatrix(body: unknown): DistanceOutcome {
  const response = (body ?? {}) as MatrixResponse;
  if (response.status !== 'OK') {
    throw new DistanceUnavailableError(`Distance Matrix answered status ${String(response.status)}`);
  }
  const element = response.rows?.[0]?.elements?.[0];
  if (!element) throw new DistanceUnavailableError('Distance Matrix answered no element');
  const origins = Array.isArray(response.origin_addresses) ? response.origin_addresses : [];
  switch (element.status) {
    case 'OK': {
      const meters = element.distance?.value;
      if (typeof meters !== 'number' || !Number.isFinite(meters) || meters < 0) {
        throw new DistanceUnavailableError('Distance Matrix answered an element without a distance');
      }
      return { status: 'RESOLVED', meters: Math.round(meters) };
    }
    case 'NOT_FOUND':
      if (origins[0] === '' || origins.length === 0) {
        throw new DistanceUnavailableError('Distance Matrix could not place the service origin');
      }
      return { status: 'UNRESOLVABLE' };
    case 'ZERO_RESULTS':
    case 'MAX_ROUTE_LENGTH_EXCEEDED':
      return { status: 'NO_ROUTE' };
    default:
      throw new DistanceUnavailableError(`Distance Matrix answered element status ${String(element.status)}`);
  }
}

/**
 * The Google Distance Matrix API (driving, metric), over `fetch`: one
 * request per lookup, abandoned after `timeoutMs` (`AbortSignal.timeout`),
 * which the hold answers 503 like any other failure. The key travels in the
 * query string as the API requires; URLs are never logged.
 */
export function createGoogleDistanceProvider(options: {
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}): DistanceProvider {
  const fetchImpl = options.fetch ?? fetch;
  return {
    kind: 'google',
    async distance({ origin, destination }) {
      const url = new URL(GOOGLE_DISTANCE_MATRIX_URL);
      url.searchParams.set('origins', addressLine(origin));
      url.searchParams.set('destinations', addressLine(destination));
      url.searchParams.set('mode', 'driving');
      url.searchParams.set('units', 'metric');
      url.searchParams.set('key', options.apiKey);
      let response: Response;
      let body: unknown;
      try {
        response = await fetchImpl(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        body = response.ok ? await response.json() : undefined;
      } catch (error) {
        const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';
        throw new DistanceUnavailableError(`Distance Matrix request ${reason}`, { cause: error });
      }
      if (!response.ok)
        throw new DistanceUnavailableError(`Distance Matrix answered HTTP ${response.status}`);
      return parseDistanceMatrix(body);
    },
  };
}
