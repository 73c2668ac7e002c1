import type { TenantSnapshot } from '@commerce/admin';
import type { RequestObservations } from '@commerce/api';
import type { HeaderRecord } from './response-headers.ts';

/** Per-request values the gateway's middleware shares with its routes. */
export interface GatewayEnv {
  Variables: {
    requestId: string;
    /** The matched route template, for logs (never the raw path, which can hold tokens). */
    route: string | undefined;
    observed: RequestObservations;
    /** The organization of `x-organization-slug`, when CORS already looked it up (see cors.ts). */
    tenant: TenantSnapshot | undefined;
    /** Headers every answer of this request carries (see response-headers.ts). */
    responseHeaders: HeaderRecord;
    /** Whether the route built its answer with `responseHeaders` already. */
    headersIncluded: boolean;
  };
}
