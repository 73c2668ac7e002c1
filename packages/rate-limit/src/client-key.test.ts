import { describe, expect, it } from 'vitest';
import { clientKeyOf } from './client-key.ts';

describe('clientKeyOf: the key per-client limits count an address under', () => {
  it('keys an IPv4 address as itself', () => {
    expect(clientKeyOf('203.0.113.5')).toBe('203.0.113.5');
    expect(clientKeyOf('203.0.113.6')).not.toBe(clientKeyOf('203.0.113.5'));
  });

  it('keys an IPv4-mapped IPv6 address as its IPv4 address, in either notation', () => {
    expect(clientKeyOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientKeyOf('::FFFF:c000:0201')).toBe('192.0.2.1');
    expect(clientKeyOf('::ffff:127.0.0.1')).toBe(clientKeyOf('127.0.0.1'));
  });

  it('keys every address of one IPv6 /64 alike, and another /64 apart', () => {
    const one = clientKeyOf('2001:db8:1:2::1');
    expect(one).toBe('2001:db8:1:2::/64');
    for (const address of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:abcd:0:0:9',
      '2001:db8:1:2:a::b',
      '2001:db8:1:2::77%eth0',
    ])
      expect(clientKeyOf(address)).toBe(one);
    expect(clientKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKeyOf('::1')).toBe('::/64');
  });

  it('keys on a configured prefix', () => {
    expect(clientKeyOf('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKeyOf('2001:db8:1:ff02::1', 56)).toBe('2001:db8:1:ff00::/56');
    expect(clientKeyOf('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1/128');
    expect(clientKeyOf('2001:db8:1:2::1', 60)).toBe(clientKeyOf('2001:db8:1:f::1', 60));
    expect(clientKeyOf('2001:db8:1:2::1', 60)).not.toBe(clientKeyOf('2001:db8:1:12::1', 60));
  });

  it('keeps what is not an address (an in-process request has no socket)', () => {
    expect(clientKeyOf('local')).toBe('local');
    expect(clientKeyOf('unknown')).toBe('unknown');
  });
});
