import { ipBytes, ipv4Text } from './ip-address';

/** Why an address is not public. `metadata` marks cloud instance-metadata endpoints. */
export interface AddressVerdict {
  readonly reason: string;
  readonly metadata: boolean;
}

interface Range {
  readonly bytes: readonly number[];
  readonly bits: number;
  readonly reason: string;
  readonly metadata: boolean;
}

function range(cidr: string, reason: string, metadata = false): Range {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = ipBytes(address);
  if (bytes === undefined) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits), reason, metadata };
}

const METADATA = 'cloud metadata address';

/** IPv4 ranges that are never fetched (most specific first). */
const V4: readonly Range[] = [
  range('169.254.169.254/32', METADATA, true),
  range('169.254.170.2/32', METADATA, true),
  range('168.63.129.16/32', METADATA, true),
  range('100.100.100.200/32', METADATA, true),
  range('0.0.0.0/8', '"this network" address'),
  range('10.0.0.0/8', 'private address'),
  range('100.64.0.0/10', 'carrier-grade NAT address'),
  range('127.0.0.0/8', 'loopback address'),
  range('169.254.0.0/16', 'link-local address'),
  range('172.16.0.0/12', 'private address'),
  range('192.0.0.0/24', 'IETF protocol address'),
  range('192.0.2.0/24', 'documentation address'),
  range('192.88.99.0/24', '6to4 relay address'),
  range('192.168.0.0/16', 'private address'),
  range('198.18.0.0/15', 'benchmarking address'),
  range('198.51.100.0/24', 'documentation address'),
  range('203.0.113.0/24', 'documentation address'),
  range('224.0.0.0/4', 'multicast address'),
  range('255.255.255.255/32', 'broadcast address'),
  range('240.0.0.0/4', 'reserved address'),
];

/** IPv6 ranges carrying an IPv4 address in their last 32 bits: judged by that address. */
const V6_EMBEDDING: readonly Range[] = [
  range('::ffff:0:0/96', 'IPv4-mapped'),
  range('64:ff9b::/96', 'NAT64'),
];

/** IPv6 ranges that are never fetched (most specific first); only 2000::/3 is public. */
const V6: readonly Range[] = [
  range('fd00:ec2::254/128', METADATA, true),
  range('::/128', 'unspecified address'),
  range('::1/128', 'loopback address'),
  range('::/96', 'IPv4-compatible address'),
  range('64:ff9b:1::/48', 'local-use NAT64 address'),
  range('100::/64', 'discard-only address'),
  range('2001::/23', 'IETF protocol address'),
  range('2001:db8::/32', 'documentation address'),
  range('fc00::/7', 'unique-local address'),
  range('fe80::/10', 'link-local address'),
  range('fec0::/10', 'site-local address'),
  range('ff00::/8', 'multicast address'),
];

const GLOBAL_UNICAST = range('2000::/3', '');
const SIX_TO_FOUR = range('2002::/16', '6to4');

function inRange(bytes: readonly number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  let bits = r.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((r.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

function embedded(v4: readonly number[], via: string): AddressVerdict | undefined {
  const inner = judge(v4);
  return inner === undefined
    ? undefined
    : { reason: `${inner.reason} (${via} ${ipv4Text(v4)})`, metadata: inner.metadata };
}

function judge(bytes: readonly number[]): AddressVerdict | undefined {
  if (bytes.length === 4) {
    const hit = V4.find((r) => inRange(bytes, r));
    return hit === undefined ? undefined : { reason: hit.reason, metadata: hit.metadata };
  }
  const carrier = V6_EMBEDDING.find((r) => inRange(bytes, r));
  if (carrier !== undefined) return embedded(bytes.slice(12), carrier.reason);
  const hit = V6.find((r) => inRange(bytes, r));
  if (hit !== undefined) return { reason: hit.reason, metadata: hit.metadata };
  if (inRange(bytes, SIX_TO_FOUR)) return embedded(bytes.slice(2, 6), SIX_TO_FOUR.reason);
  if (!inRange(bytes, GLOBAL_UNICAST)) return { reason: 'reserved address', metadata: false };
  return undefined;
}

/**
 * Judges one IP address (standard text form, no brackets): `undefined` when it is public,
 * otherwise why it is blocked. IPv4-mapped, NAT64 and 6to4 IPv6 addresses are judged by the IPv4
 * address they carry. Text that is not an IP address is judged `not an IP address`.
 */
export function judgeAddress(address: string): AddressVerdict | undefined {
  const bytes = ipBytes(address);
  if (bytes === undefined) return { reason: 'not an IP address', metadata: false };
  return judge(bytes);
}

/**
 * Why `address` would be refused by `webFetch`'s default policy, or `undefined` when it is a
 * public address. Blocks loopback, private, link-local, carrier-grade NAT, multicast, broadcast,
 * reserved, documentation and cloud-metadata ranges, in IPv4 and IPv6, including IPv4 addresses
 * embedded in IPv6 (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`).
 *
 * @example blockedAddressReason('::ffff:169.254.169.254') // 'cloud metadata address (IPv4-mapped 169.254.169.254)'
 */
export function blockedAddressReason(address: string): string | undefined {
  return judgeAddress(address)?.reason;
}
