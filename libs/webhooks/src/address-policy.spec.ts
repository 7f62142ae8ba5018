import { classifyAddress, isAllowedTarget } from './address-policy';

describe('webhook address policy', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['2002:7f00:1::', 'loopback'],
    ['64:ff9b:1::a00:1', 'reserved'],
    ['64:ff9b:1:ffff::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['[::1]', 'loopback'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['::ffff:0:127.0.0.1', 'reserved'],
    ['::ffff:0:8.8.8.8', 'reserved'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::ffff:1:7f00:1', 'reserved'],
    ['1::7f00:1', 'reserved'],
    ['::1:0:0:7f00:1', 'reserved'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
    expect(isAllowedTarget(ip, { allowLoopback: false })).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isAllowedTarget(ip, { allowLoopback: false })).toBe(true);
  });

  it('allows loopback, and only loopback, when the operator says so', () => {
    expect(isAllowedTarget('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedTarget('::1', { allowLoopback: true })).toBe(true);
    expect(isAllowedTarget('::ffff:127.0.0.1', { allowLoopback: true })).toBe(true);
    for (const ip of ['10.0.0.1', '169.254.169.254', '192.168.0.1', 'fe80::1', '0.0.0.0']) {
      expect(isAllowedTarget(ip, { allowLoopback: true })).toBe(false);
    }
  });

  it('refuses anything that is not an IP address', () => {
    expect(classifyAddress('example.com')).toBe('invalid');
  });
});
