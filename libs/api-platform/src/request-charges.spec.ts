import { addressGroup } from './request-charges';

describe('addressGroup (the address a per-address budget counts)', () => {
  it('keeps IPv4 addresses, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, whatever the spelling', () => {
    const group = '2001:db8:a:b::/64';
    for (const address of ['2001:db8:a:b::1', '2001:db8:a:b:ffff:ffff:ffff:ffff', '2001:0db8:000a:000b:0:0:0:2', '2001:DB8:A:B::1.2.3.4', '2001:db8:a:b::1%eth0']) {
      expect(addressGroup(address)).toBe(group);
    }
    expect(addressGroup('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
  });
});
