import { describe, expect, it } from 'vitest';
import { createAddressInputSchema, updateAddressInputSchema } from './schemas.ts';

const address = { line1: '1 Main St', city: 'Springfield' };

describe('address country', () => {
  it('takes an ISO 3166 code from the checkout list, stored upper case', () => {
    expect(createAddressInputSchema.parse({ ...address, country: 'US' }).country).toBe('US');
    expect(createAddressInputSchema.parse({ ...address, country: 'de' }).country).toBe('DE');
    expect(updateAddressInputSchema.parse({ id: 'adr_1', country: 'GB' }).country).toBe('GB');
  });

  it('refuses an unassigned code or a name, never cutting it to two letters', () => {
    for (const country of ['UN', 'XX', 'United States', 'USA', 'U', '']) {
      const result = createAddressInputSchema.safeParse({ ...address, country });
      expect(result.success, country).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['country']);
      expect(result.error?.issues[0]?.message).toMatch(/country code/);
    }
    expect(updateAddressInputSchema.safeParse({ id: 'adr_1', country: 'UN' }).success).toBe(false);
  });
});
