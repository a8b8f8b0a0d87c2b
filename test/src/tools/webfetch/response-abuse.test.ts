/**
 * ADV-22 (second half): response abuse. Size is capped while streaming (declared and actual),
 * decompression is bounded by the same cap, only gzip/deflate/br are decoded, idle and total
 * timeouts apply, and the connection is closed on every rejection path (no socket leak).
 */
import { Socket } from 'node:net';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { DeadlineExceededError, ModelRetry, isDeadlineExceeded } from 'golem';
import { webFetch, type WebFetchOptions } from 'golem/tools/webfetch';
import { truncationMarker } from '../../../../src/tools/webfetch/web-fetch';
import { fetchText, rejection, useRouter, type Handler } from './support';

import {
  StatusError,
  UnsupportedContentEncodingError,
  UnsupportedContentTypeError,
  WebFetchError,
} from '../../../support/internal-errors';
// A failed assertion must not leave a connect spy (or interception) behind for later tests.
afterEach(() => {
  jest.restoreAllMocks();
});

const LOCAL: WebFetchOptions = { allowPrivateHosts: ['127.0.0.1'] };
const site = useRouter();

/** Serves `body` with `headers`, all at once. */
function reply(headers: Record<string, string>, body: Buffer | string, status = 200): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** Writes `prefix`, then `chunk` forever (with backpressure) until the client goes away. */
function endless(
  headers: Record<string, string>,
  chunk: Buffer,
  status = 200,
  prefix = Buffer.alloc(0),
): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.write(prefix);
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  };
}

async function get(path: string, options: WebFetchOptions = LOCAL): Promise<string> {
  return fetchText(webFetch(options), `${site.server.origin}${path}`);
}

describe('size caps while streaming', () => {
  test('Content-Length: 10 GB with an endless body: the cap is kept and the socket closed', async () => {
    site.routes['/huge'] = endless(
      { 'content-type': 'text/plain', 'content-length': String(10 * 1024 ** 3) },
      Buffer.alloc(65_536, 'a'),
    );
    expect(await get('/huge', { ...LOCAL, maxBytes: 1000 })).toBe(
      'a'.repeat(1000) + truncationMarker(1000),
    );
    await site.server.drained();
  });

  test('an endless chunked body is cut at the cap', async () => {
    site.routes['/chunked'] = endless({ 'content-type': 'text/plain' }, Buffer.from('0123456789'));
    expect(await get('/chunked', { ...LOCAL, maxBytes: 25 })).toBe(
      '0123456789012345678901234' + truncationMarker(25),
    );
    await site.server.drained();
  });

  test('a body shorter than its Content-Length is a WebFetchError', async () => {
    site.routes['/short'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('only ten b', () => {
        res.socket?.destroy();
      });
    };
    const error = await rejection(get('/short'));
    expect(WebFetchError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `webfetch: ${site.server.origin}/short: reading the body failed: aborted`,
    );
  });
});

describe('content encodings', () => {
  const page = 'Grüße from a compressed page. '.repeat(20);

  test.each([
    ['gzip', gzipSync(page)],
    ['x-gzip', gzipSync(page)],
    ['deflate', deflateSync(page)],
    ['br', brotliCompressSync(page)],
    ['identity', Buffer.from(page)],
    ['GZIP', gzipSync(page)],
  ])('%s is decoded', async (encoding, body) => {
    site.routes['/enc'] = reply(
      { 'content-type': 'text/plain', 'content-encoding': encoding },
      body,
    );
    expect(await get('/enc')).toBe(page);
  });

  test('a compressed HTML page is decoded, then converted', async () => {
    site.routes['/html'] = reply(
      { 'content-type': 'text/html', 'content-encoding': 'br' },
      brotliCompressSync('<h1>Title</h1><p>Body</p>'),
    );
    expect(await get('/html')).toBe('Title\nBody');
  });

  test('a gzip bomb (32 MiB of "a" in 32 KiB) inflates only up to the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024, 'a'));
    expect(bomb.length).toBeLessThan(64 * 1024);
    site.routes['/bomb'] = reply(
      { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      bomb,
    );
    expect(await get('/bomb', { ...LOCAL, maxBytes: 4096 })).toBe(
      'a'.repeat(4096) + truncationMarker(4096),
    );
    await site.server.drained();
  });

  test('an endless gzip stream stops at the cap', async () => {
    site.routes['/forever'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      const chunk = Buffer.alloc(65_536, 'z');
      const pump = (): void => {
        while (!res.destroyed && gzip.write(chunk));
        if (!res.destroyed) gzip.once('drain', pump);
      };
      res.once('close', () => gzip.destroy());
      pump();
    };
    expect(await get('/forever', { ...LOCAL, maxBytes: 10_000 })).toBe(
      'z'.repeat(10_000) + truncationMarker(10_000),
    );
    await site.server.drained();
  });

  test('a compressed stream that never produces output is cut by the wire cap', async () => {
    // A gzip header followed by empty stored deflate blocks, forever: no decoded byte ever.
    const header = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
    const emptyBlocks = Buffer.concat(
      Array.from({ length: 4096 }, () => Buffer.from([0, 0, 0, 0xff, 0xff])),
    );
    site.routes['/nothing'] = endless(
      { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      emptyBlocks,
      200,
      header,
    );
    expect(await get('/nothing', { ...LOCAL, maxBytes: 1024 })).toBe(truncationMarker(0));
    await site.server.drained();
  });

  test.each(['zstd', 'gzip, br', 'compress', 'br;q=1'])(
    '"%s" is refused with UnsupportedContentEncodingError; the body is not read',
    async (encoding) => {
      site.routes['/enc'] = endless(
        { 'content-type': 'text/plain', 'content-encoding': encoding },
        Buffer.alloc(16_384, 1),
      );
      const error = await rejection(get('/enc'));
      expect(UnsupportedContentEncodingError.is(error)).toBe(true);
      expect(error).toMatchObject({
        encoding,
        url: `${site.server.origin}/enc`,
        message: `webfetch: ${site.server.origin}/enc used content encoding "${encoding}"; only gzip, deflate and br are decoded`,
      });
      await site.server.drained();
    },
  );

  test('a corrupt gzip body is a WebFetchError', async () => {
    site.routes['/corrupt'] = reply(
      { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      Buffer.from('definitely not gzip'),
    );
    const error = await rejection(get('/corrupt'));
    expect((error as Error).message).toBe(
      `webfetch: ${site.server.origin}/corrupt: reading the body failed: incorrect header check`,
    );
  });
});

describe('idle and total timeouts', () => {
  test('a slowloris body (one byte, then silence) hits the idle timeout', async () => {
    site.routes['/slowloris'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a');
    };
    const url = `${site.server.origin}/slowloris`;
    const error = await rejection(get('/slowloris', { ...LOCAL, idleTimeout: 50 }));
    expect(DeadlineExceededError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect((error as Error).message).toBe(`webfetch: ${url} sent nothing for 50 ms (idle timeout)`);
    await site.server.drained();
  });

  test('headers that never come hit the idle timeout', async () => {
    site.routes['/mute'] = () => undefined;
    const error = await rejection(get('/mute', { ...LOCAL, idleTimeout: 30 }));
    expect((error as Error).message).toBe(
      `webfetch: ${site.server.origin}/mute sent nothing for 30 ms (idle timeout)`,
    );
    await site.server.drained();
  });

  test('a connection that never completes hits the idle timeout', async () => {
    // The socket is intercepted at connect and left connecting forever (nothing is sent).
    const connect = jest.spyOn(Socket.prototype, 'connect').mockImplementation(function (
      this: Socket,
    ): Socket {
      (this as { connecting: boolean }).connecting = true;
      return this;
    });
    const error = await rejection(
      fetchText(webFetch({ ...LOCAL, idleTimeout: 40 }), 'http://127.0.0.1:9/never'),
    );
    expect(connect).toHaveBeenCalledTimes(1);
    connect.mockRestore();
    expect((error as Error).message).toBe(
      'webfetch: http://127.0.0.1:9/never sent nothing for 40 ms (idle timeout)',
    );
  });

  test('a body that trickles forever hits the total timeout', async () => {
    site.routes['/drip'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 2);
      res.once('close', () => {
        clearInterval(timer);
      });
    };
    const error = await rejection(get('/drip', { ...LOCAL, timeout: 100, idleTimeout: 60_000 }));
    expect(isDeadlineExceeded(error)).toBe(true);
    expect((error as Error).message).toBe(
      `webfetch: ${site.server.origin}/drip took longer than the total timeout of 100 ms`,
    );
    await site.server.drained();
  });
});

describe('every rejection closes the connection', () => {
  const junk = Buffer.alloc(65_536, 'j');

  test('a 404 with an endless body', async () => {
    site.routes['/404'] = endless({ 'content-type': 'text/html' }, junk, 404);
    expect(StatusError.is(await rejection(get('/404')))).toBe(true);
    await site.server.drained();
  });

  test('an image with an endless body', async () => {
    site.routes['/img'] = endless({ 'content-type': 'image/png' }, junk);
    expect(UnsupportedContentTypeError.is(await rejection(get('/img')))).toBe(true);
    await site.server.drained();
  });

  test('a successful read leaves no connection open either', async () => {
    site.routes['/ok'] = reply({ 'content-type': 'text/plain' }, 'fine');
    expect(await get('/ok')).toBe('fine');
    await site.server.drained();
  });
});
