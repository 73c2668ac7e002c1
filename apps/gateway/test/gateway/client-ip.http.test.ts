import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

// The public read budget is per tenant and client address: which address the gateway keys on shows in
// which request is the first to get 429.
const BUDGET = 3;

/** A gateway with this TRUST_PROXY for the tests of the enclosing describe. */
function gatewayWith(trustProxy: string | undefined): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await createHarness({
      env: {
        RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(BUDGET),
        ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}),
      },
    });
    await harness.provision('shop', 'owner@shop.test');
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
  return () => harness!;
}

/** A public read as if it came over a socket from `socket`, carrying `forwardedFor`. */
function read(harness: Harness, socket: string, forwardedFor?: string) {
  return harness.app.request(
    '/api/v1/public/organization',
    {
      headers: {
        'x-organization-slug': 'shop',
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    },
    { incoming: { socket: { remoteAddress: socket } } },
  );
}

let spoofed = 0;
/** A new left-most X-Forwarded-For entry on each call: what a client rotating its own header writes. */
const spoof = () => `198.18.${Math.floor(++spoofed / 250)}.${(spoofed % 250) + 1}`;

async function statuses(requests: (() => Response | Promise<Response>)[]): Promise<number[]> {
  const result: number[] = [];
  for (const request of requests) result.push((await request()).status);
  return result;
}

const spent = [...Array.from({ length: BUDGET }, () => 200), 429];

describe('client address without TRUST_PROXY', () => {
  const gateway = gatewayWith(undefined);
  it('keys on the socket and ignores X-Forwarded-For', async () => {
    const harness = gateway();
    const calls = Array.from({ length: BUDGET + 1 }, () => () => read(harness, '203.0.113.5', spoof()));
    expect(await statuses(calls)).toEqual(spent);
    expect((await read(harness, '203.0.113.6', '203.0.113.5')).status).toBe(200);
  });
});

describe('client address with TRUST_PROXY=true', () => {
  const gateway = gatewayWith('true');
  it('takes the entry the one proxy appended, so rotating the header does not escape', async () => {
    const harness = gateway();
    const calls = Array.from(
      { length: BUDGET + 1 },
      () => () => read(harness, '10.0.0.2', `${spoof()}, 203.0.113.7`),
    );
    expect(await statuses(calls)).toEqual(spent);
    // Another shopper behind the same proxy has a budget of their own.
    expect((await read(harness, '10.0.0.2', `${spoof()}, 203.0.113.8`)).status).toBe(200);
  });
});

describe('client address with TRUST_PROXY=2', () => {
  const gateway = gatewayWith('2');
  it('takes the entry that many hops from the socket', async () => {
    const harness = gateway();
    const calls = Array.from(
      { length: BUDGET + 1 },
      () => () => read(harness, '10.0.0.3', `${spoof()}, 203.0.113.9, 10.0.0.4`),
    );
    expect(await statuses(calls)).toEqual(spent);
    expect((await read(harness, '10.0.0.3', `${spoof()}, 203.0.113.10, 10.0.0.4`)).status).toBe(200);
  });
});

describe('client address with TRUST_PROXY as proxy CIDRs', () => {
  const gateway = gatewayWith('10.0.0.0/8,192.168.0.1');
  it('takes the first address from the right outside them, and trusts no header from elsewhere', async () => {
    const harness = gateway();
    const viaProxies = Array.from(
      { length: BUDGET + 1 },
      () => () => read(harness, '192.168.0.1', `${spoof()}, 203.0.113.11, 10.1.2.3`),
    );
    expect(await statuses(viaProxies)).toEqual(spent);

    // A client that connects directly is its socket address, whatever it writes.
    const direct = Array.from({ length: BUDGET + 1 }, () => () => read(harness, '203.0.113.12', spoof()));
    expect(await statuses(direct)).toEqual(spent);
  });
});

describe('IPv6 clients are keyed on their /64 (RATE_LIMIT_IPV6_PREFIX)', () => {
  const gateway = gatewayWith(undefined);
  it('counts every address of one /64 as one client, and another /64 apart', async () => {
    const harness = gateway();
    // A new address of the same /64 for every request: what one IPv6 customer can do at will.
    const calls = Array.from(
      { length: BUDGET + 1 },
      (_, index) => () => read(harness, `2001:db8:aa:1:${(index + 1).toString(16)}::${index + 7}`),
    );
    expect(await statuses(calls)).toEqual(spent);
    expect((await read(harness, '2001:db8:aa:1:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await read(harness, '2001:db8:aa:2::1')).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 socket address as its IPv4 address', async () => {
    const harness = gateway();
    const calls = Array.from({ length: BUDGET }, () => () => read(harness, '::ffff:203.0.113.40'));
    expect(await statuses(calls)).toEqual(spent.slice(0, BUDGET));
    expect((await read(harness, '203.0.113.40')).status).toBe(429);
  });
});

describe('RATE_LIMIT_IPV6_PREFIX=48', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await createHarness({
      env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(BUDGET), RATE_LIMIT_IPV6_PREFIX: '48' },
    });
    await harness.provision('shop', 'owner@shop.test');
  }, 60_000);
  afterAll(async () => {
    await harness.close();
  });
  it('counts a whole /48 as one client', async () => {
    const calls = Array.from(
      { length: BUDGET + 1 },
      (_, index) => () => read(harness, `2001:db8:bb:${index + 1}::1`),
    );
    expect(await statuses(calls)).toEqual(spent);
    expect((await read(harness, '2001:db8:bc::1')).status).toBe(200);
  });
});
