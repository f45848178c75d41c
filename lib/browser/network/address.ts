import { isIP } from 'node:net';

/**
 * Pure classification of IP addresses for the network guard. Anything that is not a
 * globally routable unicast address is refused, because a browser we run on behalf of a
 * caller must not become a way into our own network (VPC, metadata service, localhost).
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

interface V4Range {
  base: number;
  bits: number;
  cls: Exclude<AddressClass, 'public' | 'invalid'>;
}

const v4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const V4_RANGES: V4Range[] = [
  { base: v4(0, 0, 0, 0), bits: 8, cls: 'unspecified' },
  { base: v4(10, 0, 0, 0), bits: 8, cls: 'private' },
  { base: v4(100, 64, 0, 0), bits: 10, cls: 'shared' }, // CGNAT
  { base: v4(127, 0, 0, 0), bits: 8, cls: 'loopback' },
  { base: v4(169, 254, 0, 0), bits: 16, cls: 'link-local' }, // includes 169.254.169.254
  { base: v4(172, 16, 0, 0), bits: 12, cls: 'private' },
  { base: v4(192, 0, 0, 0), bits: 24, cls: 'reserved' }, // IETF protocol assignments
  { base: v4(192, 0, 2, 0), bits: 24, cls: 'reserved' }, // documentation
  { base: v4(192, 88, 99, 0), bits: 24, cls: 'reserved' }, // 6to4 relay anycast
  { base: v4(192, 168, 0, 0), bits: 16, cls: 'private' },
  { base: v4(198, 18, 0, 0), bits: 15, cls: 'reserved' }, // benchmarking
  { base: v4(198, 51, 100, 0), bits: 24, cls: 'reserved' },
  { base: v4(203, 0, 113, 0), bits: 24, cls: 'reserved' },
  { base: v4(224, 0, 0, 0), bits: 4, cls: 'multicast' },
  { base: v4(240, 0, 0, 0), bits: 4, cls: 'reserved' }, // includes 255.255.255.255
];

function parseV4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const o = Number(p);
    if (o > 255) return undefined;
    n = n * 256 + o;
  }
  return n;
}

export function classifyV4(n: number): AddressClass {
  for (const r of V4_RANGES) {
    const mask = r.bits === 0 ? 0 : (~0 << (32 - r.bits)) >>> 0;
    if ((n & mask) >>> 0 === r.base) return r.cls;
  }
  return 'public';
}

/** Eight 16-bit groups, with an embedded dotted IPv4 tail and `::` expanded. */
function parseV6(ip: string): number[] | undefined {
  let s = ip.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  // Rewrite an embedded dotted IPv4 tail as two hex groups, then parse uniformly.
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const n = parseV4(s.slice(lastColon + 1));
    if (n === undefined) return undefined;
    s = `${s.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (part: string | undefined): number[] | undefined => {
    if (!part) return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  if (!head || !rest) return undefined;
  const explicit = head.length + rest.length;
  if (halves.length === 1 && explicit !== 8) return undefined;
  if (halves.length === 2 && explicit > 7) return undefined;
  const zeros = new Array<number>(8 - explicit).fill(0);
  return [...head, ...zeros, ...rest];
}

function embeddedV4(g: number[], hi: number, lo: number): number {
  return ((g[hi] ?? 0) * 0x10000 + (g[lo] ?? 0)) >>> 0;
}

export function classifyV6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d)
  // reach the IPv4 address itself: judge the IPv4 part.
  if (upperZero && (g5 === 0xffff || g5 === 0)) return classifyV4(embeddedV4(g, 6, 7));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) also embed an IPv4 destination.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return classifyV4(embeddedV4(g, 6, 7));
  if (g0 === 0x2002) return classifyV4(embeddedV4(g, 1, 2));
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'reserved'; // documentation
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only
  // Only 2000::/3 is allocated global unicast today.
  if ((g0 & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

/** Classifies an IPv4 or IPv6 literal (brackets and zone ids tolerated). */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare.split('%')[0] ?? '');
  if (family === 4) {
    const n = parseV4(bare);
    return n === undefined ? 'invalid' : classifyV4(n);
  }
  if (family === 6) {
    const g = parseV6(bare);
    return g === undefined ? 'invalid' : classifyV6(g);
  }
  return 'invalid';
}

export const isPublicAddress = (ip: string): boolean => classifyAddress(ip) === 'public';
