import { addressKey } from './client-address';

describe('addressKey: what a per-address rate limit counts', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts a whole IPv6 /64 as one address, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:abcd::9', '2001:db8:1:2:0:0:0:0', '2001:db8:1:2::1%eth0', '2001:db8:1:2::10.0.0.1']) {
      expect(addressKey(same)).toBe(key);
    }
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('treats an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(addressKey('::ffff:c633:6404')).toBe('198.51.100.4');
  });

  it('leaves anything that is not an address alone', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});
