import { describe, expect, it } from 'vitest';
import { rateLimitKey } from './rate-limit-key.ts';

describe('rateLimitKey', () => {
  it('gives the same parts the same key', () => {
    expect(rateLimitKey(['org_1', '203.0.113.7'])).toBe(rateLimitKey(['org_1', '203.0.113.7']));
  });

  it('keeps parts containing colons from colliding', () => {
    expect(rateLimitKey(['org_1:a', 'b'])).not.toBe(rateLimitKey(['org_1', 'a:b']));
    expect(rateLimitKey(['a:b'])).not.toBe(rateLimitKey(['a', 'b']));
  });

  it('stays short whatever the parts, and keeps them out of the key', () => {
    const key = rateLimitKey(['org_1', `${'very-long-local-part'.repeat(30)}@example.com`]);

    expect(key).toHaveLength(43);
    expect(key).not.toContain('example.com');
  });
});
