/**
 * The README's examples, compiled by `typecheck` against the built package through its own
 * `exports` (not run): an example that no longer matches the API fails the typecheck.
 */
import {
  CommerceApiError,
  createCommerceClient,
  hostedCheckoutUrl,
  paginate,
  unwrap,
} from '@commerce/client';
import { verifyWebhook, WebhookVerificationError } from '@commerce/client/webhooks';

declare function getMerchantJwt(): string;
declare function handle(event: unknown): Promise<void>;

export async function calls() {
  const api = createCommerceClient({
    baseUrl: 'https://api.example.com/api/v1',
    organization: 'my-shop',
    token: () => getMerchantJwt(),
  });
  const { data, error } = await api.GET('/public/items/{slug}', { params: { path: { slug: 'lamp' } } });
  try {
    const item = await unwrap(api.GET('/public/items/{slug}', { params: { path: { slug: 'lamp' } } }));
    return [data, error, item.priceInCents];
  } catch (caught) {
    if (caught instanceof CommerceApiError && caught.code === 'RESOURCE_NOT_FOUND') return caught.requestId;
  }
  for await (const order of paginate((cursor) =>
    api.GET('/merchant/orders', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }),
  )) {
    console.log(order.orderNumber, order.totalInCents);
  }
}

export async function startCheckout(cart: { itemId: string; variantId?: string; quantity: number }[]) {
  const api = createCommerceClient({ baseUrl: process.env.COMMERCE_API_URL!, organization: 'my-shop' });
  const session = await unwrap(
    api.POST('/public/checkout/sessions', {
      body: { lines: cart, email: 'grace@example.com', customerName: 'Grace Hopper' },
    }),
  );
  const url = hostedCheckoutUrl(process.env.HOSTED_CHECKOUT_URL!, 'my-shop', session.checkoutToken);
  return Response.redirect(url, 303);
}

export async function POST(request: Request): Promise<Response> {
  const body = await request.text();
  let event: unknown;
  try {
    event = verifyWebhook(process.env.WEBHOOK_SECRET!, body, request.headers);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return new Response('bad signature', { status: 400 });
    throw error;
  }
  await handle(event);
  return new Response(null, { status: 204 });
}
