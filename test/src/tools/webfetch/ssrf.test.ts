/**
 * ADV-21: the SSRF encoding matrix. Every destination is refused before any socket is opened —
 * asserted with a spy on the socket connect path, an injected lookup that must not be consulted,
 * and zero connections on a loopback canary server that the loopback cases point at.
 */
import { ModelRetry } from 'golem';
import { webFetch, type WebFetchLookup, type WebFetchOptions } from 'golem/tools/webfetch';
import { fetchText, rejection, serve, spyOnConnect, startServer, type TestServer } from './support';
import { BlockedDestinationError } from '../../../support/internal-errors';

// A failed assertion must not leave a connect spy (or interception) behind for later tests.
afterEach(() => {
  jest.restoreAllMocks();
});

let canary: TestServer;
beforeAll(async () => {
  canary = await startServer(serve('canary reached'));
});
afterAll(() => canary.close());

/** A lookup answering a public address for anything: it must not even be asked. */
function publicLookup(): jest.Mock<ReturnType<WebFetchLookup>, Parameters<WebFetchLookup>> {
  return jest.fn((_host: string) => Promise.resolve([{ address: '93.184.215.14', family: 4 }]));
}

/** Runs `url` and asserts nothing was resolved or connected; returns the rejection. */
async function refusedOffline(url: string, options: WebFetchOptions = {}): Promise<unknown> {
  const lookup = publicLookup();
  const connect = spyOnConnect();
  const before = canary.connections();
  try {
    const error = await rejection(fetchText(webFetch({ lookup, ...options }), url));
    expect(connect).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
    expect(canary.connections()).toBe(before);
    return error;
  } finally {
    connect.mockRestore();
  }
}

describe('ADV-21 blocked before any socket is opened', () => {
  const cases: [string, () => string, string, string][] = [
    // IPv4 forms — the WHATWG parser canonicalises every numeric encoding first.
    [
      'metadata dotted',
      () => 'http://169.254.169.254/latest/meta-data/',
      '169.254.169.254',
      'cloud metadata address',
    ],
    [
      'metadata as one integer',
      () => 'http://2852039166/',
      '169.254.169.254',
      'cloud metadata address',
    ],
    ['metadata in hex', () => 'http://0xA9FEA9FE/', '169.254.169.254', 'cloud metadata address'],
    [
      'metadata in octal',
      () => 'http://0251.0376.0251.0376/',
      '169.254.169.254',
      'cloud metadata address',
    ],
    [
      'metadata mixed radix',
      () => 'http://0xa9.254.0251.0xfe/',
      '169.254.169.254',
      'cloud metadata address',
    ],
    ['loopback short form', () => `http://127.1:${canary.port}/`, '127.0.0.1', 'loopback address'],
    [
      'loopback as integer',
      () => `http://2130706433:${canary.port}/`,
      '127.0.0.1',
      'loopback address',
    ],
    [
      'loopback full-width digits',
      () => `http://１２７.０.０.１:${canary.port}/`,
      '127.0.0.1',
      'loopback address',
    ],
    ['this network', () => `http://0.0.0.0:${canary.port}/`, '0.0.0.0', '"this network" address'],
    ['zero', () => `http://0:${canary.port}/`, '0.0.0.0', '"this network" address'],
    ['private 10/8', () => 'http://10.0.0.1/', '10.0.0.1', 'private address'],
    ['private 172.16/12', () => 'http://172.31.255.1/', '172.31.255.1', 'private address'],
    ['private 192.168/16', () => 'http://192.168.1.1/', '192.168.1.1', 'private address'],
    ['link-local', () => 'http://169.254.1.1/', '169.254.1.1', 'link-local address'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/', '100.64.0.1', 'carrier-grade NAT address'],
    ['multicast', () => 'http://224.0.0.1/', '224.0.0.1', 'multicast address'],
    ['broadcast', () => 'http://255.255.255.255/', '255.255.255.255', 'broadcast address'],
    ['reserved', () => 'http://240.0.0.1/', '240.0.0.1', 'reserved address'],
    // IPv6 forms
    [
      'IPv4-mapped dotted',
      () => 'http://[::ffff:169.254.169.254]/',
      '[::ffff:a9fe:a9fe]',
      'cloud metadata address (IPv4-mapped 169.254.169.254)',
    ],
    [
      'IPv4-mapped hex',
      () => 'http://[::ffff:a9fe:a9fe]/',
      '[::ffff:a9fe:a9fe]',
      'cloud metadata address (IPv4-mapped 169.254.169.254)',
    ],
    [
      'IPv4-mapped loopback',
      () => `http://[::ffff:127.0.0.1]:${canary.port}/`,
      '[::ffff:7f00:1]',
      'loopback address (IPv4-mapped 127.0.0.1)',
    ],
    [
      'IPv4-mapped long form',
      () => `http://[0:0:0:0:0:ffff:7f00:1]:${canary.port}/`,
      '[::ffff:7f00:1]',
      'loopback address (IPv4-mapped 127.0.0.1)',
    ],
    [
      'NAT64',
      () => 'http://[64:ff9b::a9fe:a9fe]/',
      '[64:ff9b::a9fe:a9fe]',
      'cloud metadata address (NAT64 169.254.169.254)',
    ],
    [
      '6to4',
      () => 'http://[2002:a9fe:a9fe::1]/',
      '[2002:a9fe:a9fe::1]',
      'cloud metadata address (6to4 169.254.169.254)',
    ],
    [
      'AWS IPv6 metadata',
      () => 'http://[fd00:ec2::254]/',
      '[fd00:ec2::254]',
      'cloud metadata address',
    ],
    ['IPv6 loopback', () => `http://[::1]:${canary.port}/`, '[::1]', 'loopback address'],
    ['IPv6 unspecified', () => `http://[::]:${canary.port}/`, '[::]', 'unspecified address'],
    ['IPv4-compatible', () => 'http://[::127.0.0.1]/', '[::7f00:1]', 'IPv4-compatible address'],
    ['unique-local', () => 'http://[fc00::1]/', '[fc00::1]', 'unique-local address'],
    ['link-local v6', () => 'http://[fe80::1]/', '[fe80::1]', 'link-local address'],
    ['multicast v6', () => 'http://[ff02::1]/', '[ff02::1]', 'multicast address'],
    // loopback names
    [
      'localhost with a trailing dot',
      () => `http://localhost.:${canary.port}/`,
      'localhost.',
      'loopback host name',
    ],
    [
      'a localhost subdomain',
      () => `http://x.localhost:${canary.port}/`,
      'x.localhost',
      'loopback host name',
    ],
    [
      'LOCALHOST upper-case',
      () => `http://LOCALHOST:${canary.port}/`,
      'localhost',
      'loopback host name',
    ],
    // metadata hosts
    [
      'Alibaba metadata',
      () => 'http://100.100.100.200/latest/meta-data/',
      '100.100.100.200',
      'cloud metadata address',
    ],
    [
      'Azure wire server',
      () => 'http://168.63.129.16/machine',
      '168.63.129.16',
      'cloud metadata address',
    ],
    [
      'GCP metadata name',
      () => 'http://metadata.google.internal/computeMetadata/v1/',
      'metadata.google.internal',
      'cloud metadata host name',
    ],
    [
      'GCP metadata name, trailing dot',
      () => 'http://metadata.google.internal./',
      'metadata.google.internal.',
      'cloud metadata host name',
    ],
    // parser tricks
    [
      'backslash-at confusion',
      () => `http://127.0.0.1:${canary.port}\\@1.1.1.1`,
      '127.0.0.1',
      'loopback address',
    ],
    [
      'userinfo before a loopback host',
      () => `http://user@127.0.0.1:${canary.port}/`,
      '127.0.0.1',
      'loopback address',
    ],
    [
      'userinfo that looks like a host',
      () => `http://1.1.1.1@127.0.0.1:${canary.port}/`,
      '127.0.0.1',
      'loopback address',
    ],
  ];

  test.each(cases)('%s', async (_name, url, host, reason) => {
    const error = await refusedOffline(url());
    expect(BlockedDestinationError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error).toMatchObject({ host, reason, url: new URL(url()).href });
    expect((error as Error).message).toBe(
      `webfetch: refused to fetch ${new URL(url()).href}: ${host} is blocked: ${reason}`,
    );
  });

  test('a NUL inside the host fails URL parsing: ModelRetry, nothing resolved', async () => {
    const error = await refusedOffline('http://evil\u0000.allowed.com/');
    expect(ModelRetry.is(error)).toBe(true);
    expect((error as ModelRetry).reason).toBe(
      '"http://evil\\u0000.allowed.com/" is not an absolute URL; send a full http(s) URL such as "https://example.com/page"',
    );
  });

  test.each([
    ['file:///etc/passwd', 'file:'],
    ['gopher://127.0.0.1:70/_GET', 'gopher:'],
    ['ftp://127.0.0.1/pub', 'ftp:'],
    ['data:text/plain,inline', 'data:'],
    ['javascript:alert(1)', 'javascript:'],
  ])('the scheme of %s is refused as ModelRetry', async (url, scheme) => {
    const error = await refusedOffline(url);
    expect((error as ModelRetry).reason).toBe(
      `the scheme "${scheme}" is not supported; only http and https URLs can be fetched`,
    );
  });

  test('allowedHosts is matched on the parsed host, not on a prefix', async () => {
    const options = { allowedHosts: ['allowed.com'] };
    for (const url of [
      'https://allowed.com.attacker.com/',
      'https://allowed.com@attacker.com/',
      'https://attacker.com/allowed.com',
      'https://xallowed.com/',
    ]) {
      const error = await refusedOffline(url, options);
      expect(error).toMatchObject({
        kind: 'BlockedDestinationError',
        host: new URL(url).hostname,
        reason: 'not in allowedHosts',
      });
    }
  });

  test('a lookup answering a blocked address is refused before connecting', async () => {
    const connect = spyOnConnect();
    const lookup = jest.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const error = await rejection(
      fetchText(webFetch({ lookup }), `http://innocent.test:${canary.port}/`),
    );
    expect(error).toMatchObject({
      kind: 'BlockedDestinationError',
      host: 'innocent.test',
      address: '127.0.0.1',
      reason: 'loopback address',
      message: `webfetch: refused to fetch http://innocent.test:${canary.port}/: innocent.test (resolved to 127.0.0.1) is blocked: loopback address`,
    });
    expect(lookup.mock.calls).toEqual([['innocent.test']]);
    expect(connect).not.toHaveBeenCalled();
    connect.mockRestore();
  });

  test('a lookup answering something that is not an address is refused', async () => {
    const lookup = (): ReturnType<WebFetchLookup> =>
      Promise.resolve([{ address: 'not-an-ip', family: 4 }]);
    const error = await rejection(fetchText(webFetch({ lookup }), 'http://odd.test/'));
    expect(error).toMatchObject({
      kind: 'BlockedDestinationError',
      address: 'not-an-ip',
      reason: 'the lookup returned something that is not an IP address',
    });
  });
});

describe('the explicit allow options', () => {
  test('allowPrivateHosts opens exactly the listed host (in any encoding of it)', async () => {
    const tool = webFetch({ allowPrivateHosts: ['127.0.0.1'] });
    const connect = spyOnConnect();
    const before = canary.connections();
    expect(await fetchText(tool, `${canary.origin}/`)).toBe('canary reached');
    expect(await fetchText(tool, `http://127.1:${canary.port}/`)).toBe('canary reached');
    // The spy and the canary do see real connections: the refusals above are not vacuous.
    // (Counted by port: a socket of another test finishing in the background must not count.)
    const toCanary = connect.mock.calls.filter((args: unknown[]) => {
      const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
      return (first as { port?: unknown } | undefined)?.port === canary.port;
    });
    expect(toCanary).toHaveLength(2);
    expect(canary.connections() - before).toBe(2);
    connect.mockRestore();
    const other = await refusedOffline(`http://127.0.0.2:${canary.port}/`, {
      allowPrivateHosts: ['127.0.0.1'],
    });
    expect(other).toMatchObject({ kind: 'BlockedDestinationError', reason: 'loopback address' });
    const named = await refusedOffline(`http://localhost:${canary.port}/`, {
      allowPrivateHosts: ['127.0.0.1'],
    });
    expect(named).toMatchObject({ reason: 'loopback host name' });
  });

  test('a host name in allowPrivateHosts may resolve to a private address', async () => {
    const lookup = jest.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const tool = webFetch({ allowPrivateHosts: ['intranet.test'], lookup });
    expect(await fetchText(tool, `http://intranet.test:${canary.port}/`)).toBe('canary reached');
    expect(canary.requests.at(-1)?.headers.host).toBe(`intranet.test:${canary.port}`);
  });

  test('allowPrivateNetwork opens private ranges and names, but never cloud metadata', async () => {
    const lookup = jest.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const tool = webFetch({ allowPrivateNetwork: true, lookup });
    expect(await fetchText(tool, `${canary.origin}/`)).toBe('canary reached');
    expect(await fetchText(tool, `http://localhost:${canary.port}/`)).toBe('canary reached');
    for (const [url, reason] of [
      ['http://169.254.169.254/', 'cloud metadata address'],
      ['http://[::ffff:a9fe:a9fe]/', 'cloud metadata address (IPv4-mapped 169.254.169.254)'],
      ['http://metadata.google.internal/', 'cloud metadata host name'],
      ['http://168.63.129.16/', 'cloud metadata address'],
    ] as const) {
      const error = await refusedOffline(url, { allowPrivateNetwork: true });
      expect(error).toMatchObject({ kind: 'BlockedDestinationError', reason });
    }
  });

  test('allowedHosts with wildcards admits subdomains only', async () => {
    const lookup = jest.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const tool = webFetch({
      allowedHosts: ['allowed.test', '*.docs.test'],
      allowPrivateHosts: ['allowed.test', 'api.docs.test'],
      lookup,
    });
    expect(await fetchText(tool, `http://allowed.test:${canary.port}/`)).toBe('canary reached');
    expect(await fetchText(tool, `http://API.docs.test.:${canary.port}/`)).toBe('canary reached');
    const bare = await refusedOffline(`http://docs.test:${canary.port}/`, {
      allowedHosts: ['*.docs.test'],
    });
    expect(bare).toMatchObject({ reason: 'not in allowedHosts' });
  });
});
