import { describe, expect, it } from 'vitest';
import { booleanQuerySchema } from './boolean-query.ts';

describe('booleanQuerySchema', () => {
  it.each(['true', '1', 'yes', 'TRUE', 'Yes', 'YES', ' true '])('reads %j as true', (value) => {
    expect(booleanQuerySchema.parse(value)).toBe(true);
  });

  it.each(['false', '0', 'no', 'NO', 'False', 'No'])('reads %j as false', (value) => {
    expect(booleanQuerySchema.parse(value)).toBe(false);
  });

  it('passes real booleans through', () => {
    expect(booleanQuerySchema.parse(true)).toBe(true);
    expect(booleanQuerySchema.parse(false)).toBe(false);
  });

  it.each(['maybe', '', '2', 'on', 'off', 'y', 'n', '01', 'truee'])('refuses %j', (value) => {
    const result = booleanQuerySchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be one of true, 1, yes, false, 0, no');
  });

  it.each([1, 0, null, undefined, {}])('refuses the non-string %j', (value) => {
    expect(booleanQuerySchema.safeParse(value).success).toBe(false);
  });
});
