import type { RoleFixture } from './roles.ts';

/** The body of a 201, or a failure naming what could not be created. */
export async function created<T>(response: Response, what: string): Promise<T> {
  if (response.status !== 201) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** An item created by the shop's Owner through the merchant API; returns its id. */
export async function createItem(shop: RoleFixture, body: Record<string, unknown>): Promise<string> {
  return (await created<{ id: string }>(await shop.call('owner', 'POST', '/merchant/items', body), 'item'))
    .id;
}

/** A variant of `itemId` created by the shop's Owner; returns its id. */
export async function createVariant(
  shop: RoleFixture,
  itemId: string,
  body: Record<string, unknown>,
): Promise<string> {
  return (
    await created<{ id: string }>(
      await shop.call('owner', 'POST', `/merchant/items/${itemId}/variants`, body),
      'variant',
    )
  ).id;
}

/** A zone "Europe" shipping to `countries` with one rate "Standard" at `priceInCents`; returns the rate's id. */
export async function createShippingRate(
  shop: RoleFixture,
  options: { countries: string[]; priceInCents: number },
): Promise<string> {
  const zone = await created<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/shipping/zones', {
      name: 'Europe',
      countries: options.countries,
    }),
    'zone',
  );
  const rate = await created<{ id: string }>(
    await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/rates`, {
      name: 'Standard',
      priceInCents: options.priceInCents,
    }),
    'rate',
  );
  return rate.id;
}
