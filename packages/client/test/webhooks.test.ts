import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../dist/webhooks.js';

const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
const event = { type: 'example.event', id: 'evt_1', createdAt: '2026-07-01T08:00:00Z', tenant: 'shop' };

/** A delivery as a sender signs it now. */
function delivery(body = JSON.stringify(event), at = new Date()) {
  const id = 'msg_1';
  return {
    body,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    },
  };
}

describe('verifyWebhook', () => {
  it('returns the event of a signed delivery, with headers as a plain object, Headers or bytes', () => {
    const { body, headers } = delivery();
    expect(verifyWebhook(secret, body, headers)).toEqual(event);
    expect(verifyWebhook(secret, body, new Headers(headers))).toEqual(event);
    expect(
      verifyWebhook(secret, new TextEncoder().encode(body), {
        ...headers,
        'webhook-id': [headers['webhook-id']],
      }),
    ).toEqual(event);
  });

  it('refuses a changed body, another secret, a missing header and an old timestamp', () => {
    const { body, headers } = delivery();
    expect(() => verifyWebhook(secret, body.replace('shop', 'shoq'), headers)).toThrow(
      WebhookVerificationError,
    );
    const other = `whsec_${Buffer.from('another secret, also 32 bytes!!!').toString('base64')}`;
    expect(() => verifyWebhook(other, body, headers)).toThrow(WebhookVerificationError);
    const { 'webhook-signature': _signature, ...unsigned } = headers;
    expect(() => verifyWebhook(secret, body, unsigned)).toThrow(WebhookVerificationError);
    const old = delivery(JSON.stringify(event), new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(secret, old.body, old.headers)).toThrow(WebhookVerificationError);
  });
});

describe('the published entries', () => {
  it('import nothing from Node in the browser entry, and are ESM with declarations', () => {
    const dist = new URL('../dist/', import.meta.url);
    const index = readFileSync(new URL('index.js', dist), 'utf8');
    const imports = [...index.matchAll(/^import .* from "([^"]+)";?$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['openapi-fetch']);
    expect(index).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b|node:/);
    const openapiFetch = readFileSync(new URL(import.meta.resolve('openapi-fetch')), 'utf8');
    expect(openapiFetch).not.toMatch(/from ["']node:|\brequire\(/);
    for (const entry of ['index.d.ts', 'webhooks.d.ts'])
      expect(readFileSync(new URL(entry, dist), 'utf8')).toContain('export');
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.type).toBe('module');
  });
});
