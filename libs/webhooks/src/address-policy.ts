import { isIP } from 'node:net';

/** Why an address is not a public unicast address (webhooks may only reach public addresses). */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

const DESCRIPTIONS: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  link_local: 'a link-local address (including cloud metadata endpoints)',
  shared: 'a carrier-grade NAT (shared) address',
  unspecified: 'an unspecified ("this network") address',
  multicast: 'a multicast or broadcast address',
  reserved: 'a reserved or documentation address',
  invalid: 'not an IP address',
};

export function describeAddressClass(cls: Exclude<AddressClass, 'public'>): string {
  return DESCRIPTIONS[cls];
}

type Range = readonly [prefix: number[], bits: number, cls: Exclude<AddressClass, 'public'>];

const IPV4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link_local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'reserved'],
  [[192, 88, 99, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'],
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'], // includes 255.255.255.255
];

const IPV6_RANGES: readonly Range[] = [
  [[0xfe, 0x80], 10, 'link_local'],
  [[0xfc, 0x00], 7, 'private'],
  [[0xfe, 0xc0], 10, 'reserved'], // deprecated site-local
  [[0xff, 0x00], 8, 'multicast'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'], // documentation
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'reserved'], // discard
  [[0x20, 0x01, 0x00, 0x00], 32, 'reserved'], // Teredo
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'reserved'], // local-use NAT64 (RFC 8215): translates to any IPv4, private ones included
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48, 'reserved'], // benchmarking
  [[0x20, 0x01, 0x00, 0x10], 28, 'reserved'], // ORCHID
  [[0x20, 0x01, 0x00, 0x20], 28, 'reserved'], // ORCHIDv2
  [[0x3f, 0xff], 20, 'reserved'], // documentation (RFC 9637)
  [[0x5f, 0x00], 16, 'reserved'], // SRv6 segment identifiers
];

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (zone id dropped, embedded dotted IPv4 tail supported). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.split('%')[0].toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Bytes(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [(n >> 8) & 0xff, n & 0xff];
  });
}

function classifyIpv4(bytes: number[]): AddressClass {
  for (const [prefix, bits, cls] of IPV4_RANGES) if (inPrefix(bytes, prefix, bits)) return cls;
  return 'public';
}

/**
 * IPv4 addresses carried inside IPv6 ones are judged as IPv4: IPv4-mapped ::ffff:0:0/96 (RFC 4291
 * section 2.5.5.2), IPv4-compatible ::/96 (deprecated, same section), the NAT64 well-known prefix
 * 64:ff9b::/96 (RFC 6052 section 2.1) and 6to4 2002::/16 (RFC 3056), each an entry of IANA's
 * IPv6 Special-Purpose Address Registry (RFC 6890).
 */
function embeddedIpv4(bytes: number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12); // ::ffff:a.b.c.d
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12); // ::a.b.c.d
  if (inPrefix(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return bytes.slice(12); // 64:ff9b::/96
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6); // 2002::/16
  return null;
}

function classifyIpv6(bytes: number[]): AddressClass {
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  const v4 = embeddedIpv4(bytes);
  if (v4) return classifyIpv4(v4);
  for (const [prefix, bits, cls] of IPV6_RANGES) if (inPrefix(bytes, prefix, bits)) return cls;
  // The rest of ::/8 is "Reserved by IETF" in IANA's IPv6 Address Space registry (RFC 4291 section
  // 2.4), never a global unicast target. It holds the SIIT "IPv4-translated" addresses
  // ::ffff:0:a.b.c.d (::ffff:0:0:0/96, RFC 2765 section 2.1, RFC 6145), which a translator turns
  // into the IPv4 address they carry, loopback and private ones included: refused whatever they carry.
  if (bytes[0] === 0) return 'reserved';
  return 'public';
}

/** Classifies an IP address literal; anything but `public` is refused as a webhook target. */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare.split('%')[0]);
  if (family === 4) return classifyIpv4(ipv4Bytes(bare));
  if (family === 6) return classifyIpv6(ipv6Bytes(bare));
  return 'invalid';
}

/** Whether a webhook may be sent to this address (loopback only when the operator allows it). */
export function isAllowedTarget(ip: string, options: { allowLoopback: boolean }): boolean {
  const cls = classifyAddress(ip);
  return cls === 'public' || (cls === 'loopback' && options.allowLoopback);
}
