/** web_fetch WF-8 argument mistakes, construction errors, and cancellation. */
import { CancelledError, ModelRetry, ConfigError } from 'golem';
import { webFetch, type WebFetchOptions } from 'golem/tools/webfetch';
import { fetchText, rejection, spyOnConnect, toolContext, useRouter } from './support';

// A failed assertion must not leave a connect spy (or interception) behind for later tests.
afterEach(() => {
  jest.restoreAllMocks();
});

const LOCAL: WebFetchOptions = { allowPrivateHosts: ['127.0.0.1'] };
const site = useRouter();

describe('WF-8 argument mistakes are ModelRetry', () => {
  const tool = webFetch(LOCAL);
  test.each<[string, unknown, string]>([
    ['null', null, 'send a JSON object with one property "url" holding an http(s) URL'],
    [
      'an array',
      ['https://example.com'],
      'send a JSON object with one property "url" holding an http(s) URL',
    ],
    [
      'a string',
      'https://example.com',
      'send a JSON object with one property "url" holding an http(s) URL',
    ],
    ['no url', {}, '"url" must be a non-empty string holding an absolute http(s) URL'],
    [
      'an empty url',
      { url: '' },
      '"url" must be a non-empty string holding an absolute http(s) URL',
    ],
    [
      'a blank url',
      { url: '   ' },
      '"url" must be a non-empty string holding an absolute http(s) URL',
    ],
    [
      'a numeric url',
      { url: 42 },
      '"url" must be a non-empty string holding an absolute http(s) URL',
    ],
    [
      'an extra property',
      { url: 'https://example.com', method: 'POST' },
      'unknown argument "method"; send only {"url": "https://…"}',
    ],
    [
      'a relative path',
      { url: '/docs/page' },
      '"/docs/page" is not an absolute URL; send a full http(s) URL such as "https://example.com/page"',
    ],
    [
      'no scheme',
      { url: 'example.com' },
      '"example.com" is not an absolute URL; send a full http(s) URL such as "https://example.com/page"',
    ],
    [
      'ftp',
      { url: 'ftp://example.com/file' },
      'the scheme "ftp:" is not supported; only http and https URLs can be fetched',
    ],
    [
      'a huge url',
      { url: `https://example.com/${'a'.repeat(8200)}` },
      '"url" is longer than 8192 characters',
    ],
    [
      'credentials',
      { url: 'https://user:pw@example.com/' },
      'the URL carries credentials (user:password@); send it without them',
    ],
  ])('%s', async (_name, args, reason) => {
    const connect = spyOnConnect();
    const error = await rejection(tool.execute(args, toolContext()));
    expect(ModelRetry.is(error)).toBe(true);
    expect((error as ModelRetry).reason).toBe(reason);
    expect(connect).not.toHaveBeenCalled();
    connect.mockRestore();
  });
});

describe('construction', () => {
  test.each<[string, unknown, string, string]>([
    [
      'negative timeout',
      { timeout: -1 },
      'timeout',
      'webFetch: option `timeout` must be a non-negative number of milliseconds, got -1',
    ],
    [
      'NaN idleTimeout',
      { idleTimeout: NaN },
      'idleTimeout',
      'webFetch: option `idleTimeout` must be a non-negative number of milliseconds, got null',
    ],
    [
      'negative maxBytes',
      { maxBytes: -5 },
      'maxBytes',
      'webFetch: option `maxBytes` must be a non-negative integer, got -5',
    ],
    [
      'fractional maxRedirects',
      { maxRedirects: 1.5 },
      'maxRedirects',
      'webFetch: option `maxRedirects` must be a non-negative integer, got 1.5',
    ],
    [
      'non-string userAgent',
      { userAgent: 7 },
      'userAgent',
      'webFetch: option `userAgent` must be a string, got 7',
    ],
    [
      'userAgent with a newline',
      { userAgent: 'a\r\nX-Injected: 1' },
      'userAgent',
      'webFetch: option `userAgent` must not contain control characters',
    ],
    [
      'headers not an object',
      { headers: 'x' },
      'headers',
      'webFetch: option `headers` must be an object of strings',
    ],
    [
      'a bad header name',
      { headers: { 'bad name': 'x' } },
      'headers',
      'webFetch: option `headers` has an invalid header name "bad name"',
    ],
    [
      'a Host header',
      { headers: { Host: 'internal' } },
      'headers',
      'webFetch: option `headers` must not set "Host"; the tool manages it',
    ],
    [
      'a User-Agent header',
      { headers: { 'User-Agent': 'x' } },
      'headers',
      'webFetch: option `headers` must not set "User-Agent"; use the userAgent option',
    ],
    [
      'a header value with CRLF',
      { headers: { 'X-A': 'v\r\nHost: x' } },
      'headers',
      'webFetch: option `headers` "X-A" must be a string without control characters',
    ],
    [
      'allowedHosts not an array',
      { allowedHosts: 'example.com' },
      'allowedHosts',
      'webFetch: option `allowedHosts` must be an array of hosts',
    ],
    [
      'empty allowedHosts',
      { allowedHosts: [] },
      'allowedHosts',
      'webFetch: option `allowedHosts` is empty; omit it to allow every public host',
    ],
    [
      'a URL in allowedHosts',
      { allowedHosts: ['https://example.com/'] },
      'allowedHosts',
      'webFetch: option `allowedHosts` has an invalid host "https://example.com/"; use a host name or "*.domain" or an IP address',
    ],
    [
      'a host with a port',
      { allowPrivateHosts: ['127.0.0.1:8080'] },
      'allowPrivateHosts',
      'webFetch: option `allowPrivateHosts` has an invalid host "127.0.0.1:8080"; use a host name or an IP address',
    ],
    [
      'a wildcard in allowPrivateHosts',
      { allowPrivateHosts: ['*.corp'] },
      'allowPrivateHosts',
      'webFetch: option `allowPrivateHosts` has an invalid host "*.corp"; use a host name or an IP address',
    ],
    [
      'non-boolean allowPrivateNetwork',
      { allowPrivateNetwork: 'yes' },
      'allowPrivateNetwork',
      'webFetch: option `allowPrivateNetwork` must be true or false, got "yes"',
    ],
    [
      'non-function lookup',
      { lookup: 'dns' },
      'lookup',
      'webFetch: option `lookup` must be a function, got "dns"',
    ],
    [
      'an unknown option',
      { allowPrivateNetworks: true },
      'allowPrivateNetworks',
      'webFetch: option `allowPrivateNetworks` is not a webFetch option',
    ],
    ['options not an object', 'fast', 'options', 'webFetch: option `options` must be an object'],
  ])('%s', (_name, options, option, message) => {
    let caught: unknown;
    try {
      webFetch(options as WebFetchOptions);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.is(caught, 'webfetch')).toBe(true);
    expect(caught).toMatchObject({ option, message });
  });

  test('valid options construct', () => {
    expect(
      webFetch({
        timeout: 0,
        idleTimeout: 0,
        maxBytes: 1,
        maxRedirects: 0,
        headers: { 'X-Api-Key': 'k' },
        allowedHosts: ['example.com', '*.example.org', '[::1]'],
        allowPrivateHosts: ['127.0.0.1', '::1', 'intranet.corp'],
        allowPrivateNetwork: false,
        includeLinks: true,
        lookup: () => Promise.resolve([]),
      }).name,
    ).toBe('web_fetch');
  });
});

describe('cancellation', () => {
  test('an already-aborted signal rejects with the cancellation before anything else', async () => {
    const connect = spyOnConnect();
    const controller = new AbortController();
    const reason = new Error('user left');
    controller.abort(reason);
    const error = await rejection(
      webFetch(LOCAL).execute({ url: 42 }, toolContext(controller.signal)),
    );
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
    expect(connect).not.toHaveBeenCalled();
    connect.mockRestore();
  });

  test('aborting mid-request rejects with the cancellation and closes the connection', async () => {
    const controller = new AbortController();
    site.routes['/hang'] = () => {
      controller.abort(new Error('stop'));
    };
    const error = await rejection(
      fetchText(webFetch(LOCAL), `${site.server.origin}/hang`, controller.signal),
    );
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toEqual(new Error('stop'));
    await site.server.drained();
  });

  test('aborting while the body streams rejects with the cancellation', async () => {
    const controller = new AbortController();
    site.routes['/stream'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part', () => {
        setImmediate(() => {
          controller.abort(new Error('enough'));
        });
      });
    };
    const error = await rejection(
      fetchText(webFetch(LOCAL), `${site.server.origin}/stream`, controller.signal),
    );
    expect(CancelledError.is(error)).toBe(true);
    await site.server.drained();
  });
});
