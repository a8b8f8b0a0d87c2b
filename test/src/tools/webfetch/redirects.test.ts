/**
 * ADV-22 (first half): redirects and DNS rebinding. Every hop is re-validated, the redirect limit
 * is 10, caller credentials never cross origins, every lookup answer is checked, and the socket
 * is pinned to the validated address (also under TLS, where SNI keeps the host name).
 */
import { createServer as createHttpsServer } from 'node:https';
import { Socket, type AddressInfo, type LookupFunction } from 'node:net';
import { createSecureContext } from 'node:tls';
import { webFetch, type LookupAddress, type WebFetchOptions } from 'golem/tools/webfetch';
import {
  fetchText,
  rejection,
  serve,
  spyOnConnect,
  startServer,
  type Handler,
  type TestServer,
} from './support';
import { SECURE_TEST_CERT, SECURE_TEST_KEY } from './tls-fixture';

import {
  BlockedDestinationError,
  StatusError,
  TooManyRedirectsError,
  WebFetchError,
} from '../../../support/internal-errors';
// A failed assertion must not leave a connect spy (or interception) behind for later tests.
afterEach(() => {
  jest.restoreAllMocks();
});

/** Site A and site B: two loopback servers reached through the names a.test and b.test. */
let a: TestServer;
let b: TestServer;
let canary: TestServer;
let routesA: Record<string, Handler> = {};
let routesB: Record<string, Handler> = {};

function router(routes: () => Record<string, Handler>): Handler {
  return (req, res) => {
    const route = routes()[req.url ?? ''];
    if (route === undefined) {
      res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`no route ${req.url ?? ''}`);
    } else route(req, res);
  };
}

function redirect(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.end(`moved to ${location}`);
  };
}

const loopback = (): Promise<LookupAddress[]> =>
  Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
const SITES: WebFetchOptions = {
  allowPrivateHosts: ['a.test', 'b.test'],
  lookup: loopback,
};

beforeAll(async () => {
  a = await startServer(router(() => routesA));
  b = await startServer(router(() => routesB));
  canary = await startServer(serve('canary reached'));
});
afterAll(async () => {
  await Promise.all([a.close(), b.close(), canary.close()]);
});
beforeEach(() => {
  routesA = {};
  routesB = {};
  a.requests.length = 0;
  b.requests.length = 0;
});

const A = (path: string): string => `http://a.test:${a.port}${path}`;
const B = (path: string): string => `http://b.test:${b.port}${path}`;

describe('redirects', () => {
  test.each([301, 302, 303, 307, 308])('%i is followed to the final page', async (status) => {
    routesA['/old'] = redirect('/new', status);
    routesA['/new'] = serve('new page');
    expect(await fetchText(webFetch(SITES), A('/old'))).toBe('new page');
    expect(a.requests.map((r) => r.url)).toEqual(['/old', '/new']);
  });

  test('10 redirects are followed; the 11th is refused with TooManyRedirectsError', async () => {
    for (let i = 1; i <= 11; i++) routesA[`/r${i}`] = redirect(`/r${i - 1}`);
    routesA['/r0'] = serve('end of chain');
    expect(await fetchText(webFetch(SITES), A('/r10'))).toBe('end of chain');
    a.requests.length = 0;
    const error = await rejection(fetchText(webFetch(SITES), A('/r11')));
    expect(TooManyRedirectsError.is(error)).toBe(true);
    expect(error).toMatchObject({
      url: A('/r11'),
      maxRedirects: 10,
      message: `webfetch: ${A('/r11')} redirected more than 10 times`,
    });
    expect(a.requests).toHaveLength(11);
    await a.drained();
  });

  test('maxRedirects 0 refuses the first redirect', async () => {
    routesA['/old'] = redirect('/new');
    const error = await rejection(fetchText(webFetch({ ...SITES, maxRedirects: 0 }), A('/old')));
    expect(error).toMatchObject({
      kind: 'TooManyRedirectsError',
      message: `webfetch: ${A('/old')} redirected more than 0 times`,
    });
  });

  test('a redirect to the metadata address is refused before connecting', async () => {
    routesA['/go'] = redirect('http://169.254.169.254/latest/meta-data/iam/');
    const connect = spyOnConnect();
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(BlockedDestinationError.is(error)).toBe(true);
    expect(error).toMatchObject({
      url: 'http://169.254.169.254/latest/meta-data/iam/',
      host: '169.254.169.254',
      reason: 'cloud metadata address',
    });
    expect(connect).toHaveBeenCalledTimes(1);
    connect.mockRestore();
    await a.drained();
  });

  test.each([
    ['an IP literal', (port: number) => `http://127.0.0.1:${port}/`, 'loopback address'],
    ['an encoded IP', (port: number) => `http://0x7f000001:${port}/`, 'loopback address'],
    ['a loopback name', (port: number) => `http://localhost:${port}/`, 'loopback host name'],
    [
      'a name resolving to loopback',
      (port: number) => `http://c.test:${port}/`,
      'loopback address',
    ],
  ])('a redirect to the loopback canary via %s is refused', async (_name, target, reason) => {
    routesA['/go'] = redirect(target(canary.port));
    const before = canary.connections();
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(error).toMatchObject({ kind: 'BlockedDestinationError', reason });
    expect(canary.connections()).toBe(before);
  });

  test.each([
    ['file:///etc/passwd', 'scheme "file:" is not fetched (only http and https)'],
    ['gopher://a.test/', 'scheme "gopher:" is not fetched (only http and https)'],
    ['data:text/plain,hi', 'scheme "data:" is not fetched (only http and https)'],
  ])('a redirect to %s is refused', async (location, reason) => {
    routesA['/go'] = redirect(location);
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(error).toMatchObject({ kind: 'BlockedDestinationError', url: location, reason });
  });

  test('a redirect outside allowedHosts is refused', async () => {
    routesA['/go'] = redirect(B('/page'));
    const tool = webFetch({ ...SITES, allowedHosts: ['a.test'] });
    const error = await rejection(fetchText(tool, A('/go')));
    expect(error).toMatchObject({ host: 'b.test', reason: 'not in allowedHosts' });
    expect(b.requests).toHaveLength(0);
  });

  test('a redirect URL carrying credentials is refused', async () => {
    routesA['/go'] = redirect(`http://user:pw@b.test:${b.port}/`);
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(error).toMatchObject({
      kind: 'BlockedDestinationError',
      reason: 'the redirect URL carries credentials',
    });
  });

  test('an unparsable Location is a WebFetchError', async () => {
    routesA['/go'] = redirect('http://[not-an-ip/');
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(WebFetchError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `webfetch: ${A('/go')}: redirected to an invalid URL "http://[not-an-ip/"`,
    );
  });

  test('a 3xx without Location is a StatusError naming where it was answered', async () => {
    routesA['/go'] = redirect('/elsewhere');
    routesA['/elsewhere'] = serve('', 'text/plain', 302);
    const error = await rejection(fetchText(webFetch(SITES), A('/go')));
    expect(StatusError.is(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 302, url: A('/go'), responseUrl: A('/elsewhere') });
  });

  test('the body of every redirect is discarded without being read', async () => {
    routesA['/go'] = (_req, res) => {
      res.writeHead(302, { location: '/page', 'content-type': 'text/plain' });
      res.write('x'.repeat(65_536)); // and never ends
    };
    routesA['/page'] = serve('landed');
    expect(await fetchText(webFetch(SITES), A('/go'))).toBe('landed');
    await a.drained();
  });
});

describe('caller headers', () => {
  const SECRETS = { Authorization: 'Bearer secret', Cookie: 'session=1', 'X-Api-Key': 'k-123' };
  const secretNames = ['authorization', 'cookie', 'x-api-key'];
  const carried = (server: TestServer, index: number): string[] =>
    secretNames.filter((name) => server.requests[index]?.headers[name] !== undefined);

  test('are kept on a same-origin redirect', async () => {
    routesA['/go'] = redirect('/page');
    routesA['/page'] = serve('ok');
    await fetchText(webFetch({ ...SITES, headers: SECRETS }), A('/go'));
    expect([carried(a, 0), carried(a, 1)]).toEqual([secretNames, secretNames]);
  });

  test('are dropped on a cross-origin redirect, and stay dropped when it comes back', async () => {
    routesA['/go'] = redirect(B('/hop'));
    routesB['/hop'] = redirect(A('/final'));
    routesA['/final'] = serve('back home');
    expect(await fetchText(webFetch({ ...SITES, headers: SECRETS }), A('/go'))).toBe('back home');
    expect(carried(a, 0)).toEqual(secretNames);
    expect(carried(b, 0)).toEqual([]);
    expect(carried(a, 1)).toEqual([]);
    expect(b.requests[0]?.headers['user-agent']).toBe('golem-webfetch');
  });

  test('a different port on the same host is another origin', async () => {
    routesA['/go'] = redirect(`http://a.test:${b.port}/hop`);
    routesB['/hop'] = serve('other port');
    await fetchText(webFetch({ ...SITES, headers: SECRETS }), A('/go'));
    expect(carried(b, 0)).toEqual([]);
  });
});

describe('DNS rebinding', () => {
  test('a host whose records are [public, 127.0.0.1] is refused before connecting', async () => {
    const connect = spyOnConnect();
    const lookup = jest.fn(() =>
      Promise.resolve([
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]),
    );
    const error = await rejection(
      fetchText(webFetch({ lookup }), `http://mixed.test:${canary.port}/`),
    );
    expect(error).toMatchObject({
      kind: 'BlockedDestinationError',
      address: '127.0.0.1',
      reason: 'loopback address',
    });
    expect(connect).not.toHaveBeenCalled();
    connect.mockRestore();
  });

  test('the connection is pinned: an answer that flips after validation is never used (real sockets)', async () => {
    // The validated answer is 127.0.0.1 (allowed for this host); the next answer would be
    // 127.0.0.2, where a canary listens on the same port. Nobody asks again.
    const target = await startServer(serve('pinned page'));
    const rebound = await startServer(serve('rebound canary'), '127.0.0.2', target.port);
    const answers = [[{ address: '127.0.0.1', family: 4 }], [{ address: '127.0.0.2', family: 4 }]];
    const lookup = jest.fn(() => Promise.resolve(answers.shift() ?? []));
    const tool = webFetch({ allowPrivateHosts: ['flip.test'], lookup });
    expect(await fetchText(tool, `http://flip.test:${target.port}/`)).toBe('pinned page');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(target.requests[0]?.headers.host).toBe(`flip.test:${target.port}`);
    expect(rebound.connections()).toBe(0);
    await Promise.all([target.close(), rebound.close()]);
  });

  test('the connection is pinned: a public answer that flips to loopback connects to the public one', async () => {
    // The socket is intercepted at connect (nothing reaches the network): it is asked to
    // resolve the host through the tool's own lookup, which must answer the validated address.
    const answers = [
      [{ address: '93.184.215.14', family: 4 }],
      [{ address: '127.0.0.1', family: 4 }],
    ];
    const lookup = jest.fn(() => Promise.resolve(answers.shift() ?? []));
    const seen: unknown[] = [];
    const connect = jest.spyOn(Socket.prototype, 'connect').mockImplementation(function (
      this: Socket,
      ...args: unknown[]
    ): Socket {
      const first = args[0];
      const options = (Array.isArray(first) ? first[0] : first) as {
        host: string;
        port: number;
        lookup: LookupFunction;
      };
      seen.push({ host: options.host, port: options.port });
      options.lookup(options.host, { all: true }, (_err, addresses) => seen.push(addresses));
      options.lookup(options.host, {}, (_err, address, family) => seen.push([address, family]));
      process.nextTick(() => this.destroy(new Error('intercepted before reaching the network')));
      return this;
    });
    const error = await rejection(fetchText(webFetch({ lookup }), 'http://flip.test/page'));
    connect.mockRestore();
    expect(seen).toEqual([
      { host: 'flip.test', port: 80 },
      [{ address: '93.184.215.14', family: 4 }],
      ['93.184.215.14', 4],
    ]);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(error).toMatchObject({
      kind: 'WebFetchError',
      message:
        'webfetch: http://flip.test/page: request failed: intercepted before reaching the network',
    });
  });

  test('every hop is resolved again: a redirect to a name that now resolves to loopback is refused', async () => {
    let calls = 0;
    const lookup = jest.fn((host: string) => {
      calls++;
      return Promise.resolve([
        { address: host === 'a.test' ? '127.0.0.1' : '10.0.0.7', family: 4 },
      ]);
    });
    routesA['/go'] = redirect('http://internal.test/admin');
    const error = await rejection(
      fetchText(webFetch({ allowPrivateHosts: ['a.test'], lookup }), A('/go')),
    );
    expect(error).toMatchObject({
      kind: 'BlockedDestinationError',
      host: 'internal.test',
      address: '10.0.0.7',
      reason: 'private address',
    });
    expect(lookup.mock.calls).toEqual([['a.test'], ['internal.test']]);
    expect(calls).toBe(2);
  });
});

describe('https', () => {
  test('TLS goes to the pinned address with the host name as SNI, and verifies the certificate', async () => {
    const names: string[] = [];
    const tls = createHttpsServer({
      cert: SECURE_TEST_CERT,
      key: SECURE_TEST_KEY,
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(null, createSecureContext({ cert: SECURE_TEST_CERT, key: SECURE_TEST_KEY }));
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const port = (tls.address() as AddressInfo).port;
    const lookup = jest.fn(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const tool = webFetch({ allowPrivateHosts: ['secure.test'], lookup });
    const error = await rejection(fetchText(tool, `https://secure.test:${port}/`));
    await new Promise<void>((resolve) => {
      tls.close(() => {
        resolve();
      });
    });
    expect(names).toEqual(['secure.test']);
    expect(WebFetchError.is(error)).toBe(true);
    // Node 24 appends a hint to the TLS error ("…; if the root CA is installed locally, try
    // running Node.js with --use-system-ca"); the message is golem's prefix and Node's words.
    expect((error as Error).message).toMatch(
      new RegExp(
        `^webfetch: https://secure\\.test:${port}/: request failed: self-signed certificate(;|$)`,
      ),
    );
  });
});
