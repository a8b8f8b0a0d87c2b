/**
 * The address judgement behind the SSRF policy: a table of ranges, and properties over every
 * IPv4 address and its IPv6 and numeric encodings (ADV-21).
 */
import fc from 'fast-check';
import { blockedAddressReason, webFetch, type WebFetchLookup } from 'golem/tools/webfetch';
import { rejection, spyOnConnect, toolContext } from './support';
import { BlockedDestinationError } from '../../../support/internal-errors';

// A failed assertion must not leave a connect spy (or interception) behind for later tests.
afterEach(() => {
  jest.restoreAllMocks();
});

function publicLookup(): jest.Mock<ReturnType<WebFetchLookup>, Parameters<WebFetchLookup>> {
  return jest.fn((_host: string) => Promise.resolve([{ address: '93.184.215.14', family: 4 }]));
}

describe('blockedAddressReason', () => {
  test.each<[string, string | undefined]>([
    ['93.184.215.14', undefined],
    ['8.8.8.8', undefined],
    ['2606:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::808:808', undefined],
    ['127.0.0.1', 'loopback address'],
    ['169.254.170.2', 'cloud metadata address'],
    ['172.15.255.255', undefined],
    ['172.32.0.0', undefined],
    ['100.63.255.255', undefined],
    ['100.128.0.0', undefined],
    ['198.18.0.1', 'benchmarking address'],
    ['192.0.2.1', 'documentation address'],
    ['2001:db8::1', 'documentation address'],
    ['2001::1', 'IETF protocol address'],
    ['64:ff9b:1::1', 'local-use NAT64 address'],
    ['fe80::1%eth0', 'link-local address'],
    ['fec0::1', 'site-local address'],
    ['100::1', 'discard-only address'],
    ['4000::1', 'reserved address'],
    ['::ffff:10.1.2.3', 'private address (IPv4-mapped 10.1.2.3)'],
    ['example.com', 'not an IP address'],
    ['[::1]', 'not an IP address'],
  ])('%s → %s', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  const v4 = fc.tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  );
  const hex = (a: number, b: number): string => ((a << 8) | b).toString(16);

  test('property: IPv4-mapped and NAT64 forms are judged by the IPv4 address they carry', () => {
    fc.assert(
      fc.property(v4, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const inner = blockedAddressReason(dotted);
        const expected = (via: string): string | undefined =>
          inner === undefined ? undefined : `${inner} (${via} ${dotted})`;
        expect(blockedAddressReason(`::ffff:${dotted}`)).toBe(expected('IPv4-mapped'));
        expect(blockedAddressReason(`::ffff:${hex(a, b)}:${hex(c, d)}`)).toBe(
          expected('IPv4-mapped'),
        );
        expect(blockedAddressReason(`64:ff9b::${hex(a, b)}:${hex(c, d)}`)).toBe(expected('NAT64'));
      }),
    );
  });

  const blockedV4 = fc.oneof(
    fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
    fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
  );
  const encodings: ((p: [number, number, number, number]) => string)[] = [
    ([a, b, c, d]) => String(((a << 24) >>> 0) + (b << 16) + (c << 8) + d),
    ([a, b, c, d]) => `0x${(((a << 24) >>> 0) + (b << 16) + (c << 8) + d).toString(16)}`,
    (p) => p.map((x) => `0${x.toString(8)}`).join('.'),
    (p) => p.map((x) => `0x${x.toString(16)}`).join('.'),
    ([a, b, c, d]) => `${a}.${b}.${(c << 8) + d}`,
    ([a, b, c, d]) => `${a}.${(b << 16) + (c << 8) + d}`,
    ([a, b, c, d]) => `[::ffff:${a}.${b}.${c}.${d}]`,
    ([a, b, c, d]) => `[64:ff9b::${hex(a, b)}:${hex(c, d)}]`,
  ];

  test('property: every numeric encoding of a blocked IPv4 address is refused offline', async () => {
    const connect = spyOnConnect();
    const lookup = publicLookup();
    const tool = webFetch({ lookup });
    await fc.assert(
      fc.asyncProperty(blockedV4, fc.nat(encodings.length - 1), async (parts, which) => {
        const host = encodings[which]!(parts);
        const error = await rejection(tool.execute({ url: `http://${host}/` }, toolContext()));
        expect(BlockedDestinationError.is(error)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(connect).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
    connect.mockRestore();
  });
});
