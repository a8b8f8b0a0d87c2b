/**
 * web_fetch baseline contract (spec §26.1): the tool value, WF-1/WF-2 content, WF-3..WF-5
 * refusals, WF-6 byte cap, WF-7 timeouts and transport failures, WF-9 request headers.
 */
import { DeadlineExceededError, ModelRetry, isDeadlineExceeded } from 'golem';
import { toolSpec } from '../../../../src/core/tool/tool';
import { webFetch, type WebFetchOptions } from 'golem/tools/webfetch';
import { DEFAULT_MAX_BYTES } from '../../../../src/tools/webfetch/options';
import { truncationMarker } from '../../../../src/tools/webfetch/web-fetch';
import { fetchText, rejection, serve, startServer, useRouter } from './support';

import {
  StatusError,
  UnsupportedContentTypeError,
  WebFetchError,
} from '../../../support/internal-errors';
const LOCAL: WebFetchOptions = { allowPrivateHosts: ['127.0.0.1'] };
const site = useRouter();

/** Serves `body` at `/page` and fetches it. */
async function fetchServed(
  body: string | Buffer,
  contentType: string,
  options: WebFetchOptions = LOCAL,
): Promise<string> {
  site.routes['/page'] = serve(body, contentType);
  return fetchText(webFetch(options), `${site.server.origin}/page`);
}

describe('the tool value', () => {
  test('name, description and schema are the public contract; policy fields are unset', () => {
    const tool = webFetch();
    expect(toolSpec(tool)).toEqual({
      name: 'web_fetch',
      description:
        'Fetch a web page or document over HTTP(S) and return it as text: HTML is converted to plain text; plain text, JSON, XML and YAML are returned as they are. Long responses are cut and end with a truncation note. Only public http and https URLs can be fetched.',
      schema: {
        type: 'object',
        properties: {
          url: { type: 'string', description: 'The absolute http or https URL to fetch.' },
        },
        required: ['url'],
        additionalProperties: false,
      },
    });
    expect([tool.maxRetries, tool.timeout, tool.sequential, tool.approval]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('the default byte cap is 1 MiB and the marker names the bytes kept', () => {
    expect(DEFAULT_MAX_BYTES).toBe(1_048_576);
    expect(truncationMarker(16)).toBe('\n\n[webfetch: response truncated at 16 bytes]');
  });
});

describe('WF-1/WF-2 content', () => {
  test('WF-1 an HTML page becomes its title and body text', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>Docs</title><style>h1{color:red}</style>' +
      '<script>var s = "<p>not text</p>";</script></head>' +
      '<body><h1>Golem</h1><p>Tools &amp; agents</p><!-- a comment --></body></html>';
    expect(await fetchServed(html, 'text/html; charset=utf-8')).toBe('Docs\nGolem\nTools & agents');
  });

  test('WF-1 the media type is matched case-insensitively, parameters dropped', async () => {
    expect(await fetchServed('<p>a</p><p>b</p>', 'Text/HTML; Charset=UTF-8')).toBe('a\nb');
    expect(await fetchServed('<p>x</p>', 'application/xhtml+xml')).toBe('x');
  });

  test.each([
    ['text/plain', '  plain\n\ttext with <b>tags</b> kept  \n'],
    ['application/json', '{ "a": [1, 2],\n  "b": "<p>" }\n'],
    ['application/xml', '<?xml version="1.0"?>\n<root><p>x</p></root>'],
    ['text/csv', 'a,b\n1,"two, three"\n'],
    ['application/yaml', 'a: 1\nb: [x, y]\n'],
    ['application/x-yaml', 'k: v\n'],
    ['text/markdown', '# Title\n\n* item\n'],
  ])('WF-2 %s passes through byte-exact', async (type, body) => {
    expect(await fetchServed(body, type)).toBe(body);
  });

  test('WF-2 UTF-8 text arrives intact (no transcoding)', async () => {
    expect(await fetchServed('Grüße, 世界 😀', 'text/plain; charset=utf-8')).toBe('Grüße, 世界 😀');
  });
});

describe('WF-3..WF-5 refusals', () => {
  test('WF-3 a 404 is a StatusError naming the status and URL, not ModelRetry; the body is not read', async () => {
    site.routes['/missing'] = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.write('<p>not found</p>');
      // The body never ends: only a destroyed response lets the connection close.
    };
    const url = `${site.server.origin}/missing`;
    const error = await rejection(fetchText(webFetch(LOCAL), url));
    expect(StatusError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error).toMatchObject({ statusCode: 404, url, responseUrl: url });
    expect((error as Error).message).toBe(`webfetch: GET ${url} answered HTTP 404`);
    await site.server.drained();
  });

  test('WF-3 a 500 is a StatusError too', async () => {
    site.routes['/boom'] = serve('oops', 'text/plain', 500);
    const error = await rejection(fetchText(webFetch(LOCAL), `${site.server.origin}/boom`));
    expect(error).toMatchObject({ kind: 'StatusError', statusCode: 500 });
  });

  test('WF-4 image/png is refused with UnsupportedContentTypeError', async () => {
    site.routes['/img'] = serve(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    const url = `${site.server.origin}/img`;
    const error = await rejection(fetchText(webFetch(LOCAL), url));
    expect(UnsupportedContentTypeError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error).toMatchObject({ contentType: 'image/png', url });
    expect((error as Error).message).toBe(
      `webfetch: ${url} returned content type "image/png"; only text, HTML, JSON, XML and YAML are returned`,
    );
  });

  test('WF-5 a missing Content-Type is refused with an empty type (no sniffing)', async () => {
    site.routes['/bare'] = (_req, res) => {
      res.writeHead(200);
      res.end('looks like text');
    };
    const url = `${site.server.origin}/bare`;
    const error = await rejection(fetchText(webFetch(LOCAL), url));
    expect(error).toMatchObject({ kind: 'UnsupportedContentTypeError', contentType: '', url });
    expect((error as Error).message).toBe(
      `webfetch: ${url} returned no Content-Type; only text, HTML, JSON, XML and YAML are returned`,
    );
  });

  test.each(['application/octet-stream', 'application/pdf', 'text', 'video/mp4'])(
    '%s is refused',
    async (type) => {
      const error = await rejection(fetchServed('x', type));
      expect(error).toMatchObject({ kind: 'UnsupportedContentTypeError', contentType: type });
    },
  );
});

describe('WF-6 byte cap', () => {
  test('a 100-byte body with maxBytes 16 keeps 16 bytes and appends the marker', async () => {
    const body = 'abcdefghij'.repeat(10);
    expect(await fetchServed(body, 'text/plain', { ...LOCAL, maxBytes: 16 })).toBe(
      'abcdefghijabcdef\n\n[webfetch: response truncated at 16 bytes]',
    );
  });

  test('a body of exactly maxBytes is not truncated', async () => {
    expect(await fetchServed('0123456789', 'text/plain', { ...LOCAL, maxBytes: 10 })).toBe(
      '0123456789',
    );
  });

  test('the cut may split a UTF-8 sequence; the marker follows the HTML conversion', async () => {
    expect(await fetchServed('ééé', 'text/plain', { ...LOCAL, maxBytes: 3 })).toBe(
      'é\uFFFD\n\n[webfetch: response truncated at 3 bytes]',
    );
    expect(
      await fetchServed('<p>one</p><p>two</p><p>three</p>', 'text/html', {
        ...LOCAL,
        maxBytes: 20,
      }),
    ).toBe('one\ntwo\n\n[webfetch: response truncated at 20 bytes]');
  });

  test('maxBytes 0 means the 1 MiB default', async () => {
    const body = 'x'.repeat(DEFAULT_MAX_BYTES + 10);
    const text = await fetchServed(body, 'text/plain', { ...LOCAL, maxBytes: 0 });
    expect(text).toBe('x'.repeat(DEFAULT_MAX_BYTES) + truncationMarker(DEFAULT_MAX_BYTES));
  });
});

describe('WF-7 timeouts and transport failures', () => {
  test('timeout 1 ms against a server that never answers: deadline in the chain, not ModelRetry', async () => {
    site.routes['/slow'] = () => undefined;
    const url = `${site.server.origin}/slow`;
    const error = await rejection(fetchText(webFetch({ ...LOCAL, timeout: 1 }), url));
    expect(DeadlineExceededError.is(error)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect((error as Error).message).toBe(
      `webfetch: ${url} took longer than the total timeout of 1 ms`,
    );
    await site.server.drained();
  });

  test('a refused connection is a WebFetchError preserving the cause', async () => {
    const closed = await startServer(serve('x'));
    const url = `${closed.origin}/`;
    await closed.close();
    const error = await rejection(fetchText(webFetch(LOCAL), url));
    expect(WebFetchError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect((error as WebFetchError).url).toBe(url);
    expect((error as Error).message).toBe(
      `webfetch: ${url}: request failed: connect ECONNREFUSED 127.0.0.1:${new URL(url).port}`,
    );
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });

  test('a failing lookup is a WebFetchError naming the host', async () => {
    const cause = new Error('getaddrinfo ENOTFOUND nowhere.test');
    const tool = webFetch({ lookup: () => Promise.reject(cause) });
    const error = await rejection(fetchText(tool, 'http://nowhere.test/'));
    expect(error).toMatchObject({
      kind: 'WebFetchError',
      message:
        'webfetch: http://nowhere.test/: cannot resolve nowhere.test: getaddrinfo ENOTFOUND nowhere.test',
      cause,
    });
  });

  test('a lookup with no answer is a WebFetchError', async () => {
    const tool = webFetch({ lookup: () => Promise.resolve([]) });
    const error = await rejection(fetchText(tool, 'http://empty.test/'));
    expect((error as Error).message).toBe(
      'webfetch: http://empty.test/: empty.test resolved to no address',
    );
  });
});

describe('WF-9 request headers', () => {
  test('User-Agent defaults to golem-webfetch; encodings and Accept are sent', async () => {
    site.routes['/h'] = serve('ok');
    await fetchText(webFetch(LOCAL), `${site.server.origin}/h`);
    expect(site.server.requests[0]?.headers).toMatchObject({
      'user-agent': 'golem-webfetch',
      'accept-encoding': 'gzip, deflate, br',
      accept:
        'text/html, application/xhtml+xml, text/plain, application/json, application/xml, application/yaml, text/*;q=0.9',
      host: `127.0.0.1:${site.server.port}`,
    });
  });

  test('a custom User-Agent is sent; an empty one means the default', async () => {
    site.routes['/h'] = serve('ok');
    await fetchText(webFetch({ ...LOCAL, userAgent: 'research-bot/2' }), `${site.server.origin}/h`);
    await fetchText(webFetch({ ...LOCAL, userAgent: '' }), `${site.server.origin}/h`);
    expect(site.server.requests.map((r) => r.headers['user-agent'])).toEqual([
      'research-bot/2',
      'golem-webfetch',
    ]);
  });

  test('caller headers are sent (and may replace Accept); the fragment is not', async () => {
    site.routes['/h?q=1'] = serve('ok');
    await fetchText(
      webFetch({ ...LOCAL, headers: { Authorization: 'Bearer t', Accept: 'text/plain' } }),
      `${site.server.origin}/h?q=1#section`,
    );
    expect(site.server.requests[0]?.url).toBe('/h?q=1');
    expect(site.server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer t',
      accept: 'text/plain',
    });
  });
});
