import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (docs/webhooks.md "Safety"). Checked when an endpoint is created or its
 * URL changed, and again by the sender at connection time against the address it connects to, so a
 * host name that later resolves elsewhere (DNS rebinding) reaches no internal address.
 */
export interface WebhookUrlPolicy {
  /** Only `https://` (production). */
  requireHttps: boolean;
  /** Loopback, private, link-local and other non-public addresses allowed (development and tests). */
  allowPrivateHosts: boolean;
}

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can play a rebinding DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** How long a host name may take to resolve when an endpoint is created or changed. */
export const RESOLVE_TIMEOUT_MS = 3_000;

export const systemResolver: HostResolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('the host name did not resolve in time')), RESOLVE_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timedOut]);
    return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Whether an address is one a webhook must never reach: anything but a global unicast address
 * (loopback, private, link-local including the cloud metadata address 169.254.169.254, carrier-grade
 * NAT, multicast, broadcast, unspecified, reserved, unique-local IPv6, and IPv6 forms that embed an
 * IPv4 address: mapped, NAT64, 6to4, Teredo). An address that does not parse is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return true;
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
  const parsed = ipaddr.process(bare);
  return parsed.range() !== 'unicast';
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Problems with the URL's form (no DNS): scheme, credentials, length, fragment, literal addresses. */
export function webhookUrlProblems(raw: string, policy: WebhookUrlPolicy): string[] {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return [`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['must be an absolute URL'];
  }
  const problems: string[] = [];
  if (policy.requireHttps ? url.protocol !== 'https:' : url.protocol !== 'https:' && url.protocol !== 'http:')
    problems.push(policy.requireHttps ? 'must be an https:// URL' : 'must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '')
    problems.push('must not contain credentials (user:password@); authenticate requests with the signature');
  if (url.hash !== '') problems.push('must not contain a fragment');
  const host = hostOf(url);
  if (host === '') problems.push('must name a host');
  if (!policy.allowPrivateHosts && host !== '') {
    const lowered = host.toLowerCase();
    if (
      isIP(host) !== 0 ? isForbiddenAddress(host) : lowered === 'localhost' || lowered.endsWith('.localhost')
    )
      problems.push(
        'must not point to a loopback, private, link-local, multicast or otherwise non-public address',
      );
  }
  return problems;
}

/**
 * The URL's problems, with its host name resolved and every address checked (unless private hosts
 * are allowed): a name resolving to a non-public address, or not resolving at all, is refused.
 */
export async function webhookUrlProblemsResolved(
  raw: string,
  policy: WebhookUrlPolicy,
  resolve: HostResolver = systemResolver,
): Promise<string[]> {
  const problems = webhookUrlProblems(raw, policy);
  if (problems.length > 0 || policy.allowPrivateHosts) return problems;
  const host = hostOf(new URL(raw));
  if (isIP(host) !== 0) return [];
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return ['has a host name that does not resolve'];
  }
  if (addresses.length === 0) return ['has a host name that does not resolve'];
  const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
  if (forbidden)
    return [
      `has a host name that resolves to a non-public address (${forbidden.address}); loopback, private, link-local, multicast and metadata addresses are refused`,
    ];
  return [];
}
