/**
 * The redirect policy of the shared HTTP layer (issue 12): credentials and bodies stay with their
 * origin. Real loopback servers; a different port on 127.0.0.1 is a different origin.
 */
import { isRetryable } from 'golem';
import { postJson } from '../../../../src/providers/shared/http';
import { MAX_REDIRECTS } from '../../../../src/providers/shared/redirects';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { ModelRedirectError } from '../../../support/internal-errors';

const servers: ReplayServer[] = [];
async function server(...replies: Reply[]) {
  const s = await startReplayServer(replies);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const KEY = 'sk-redirect-secret-0123';

function post(url: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) {
  return postJson({
    provider: 'p',
    url,
    headers,
    body: { messages: ['the conversation'] },
    secrets: [KEY],
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('cross-origin redirects are refused', () => {
  test.each([301, 302, 303, 307, 308])(
    'a %i to another origin is a non-retryable ModelRedirectError and the other origin sees nothing',
    async (status) => {
      const other = await server({ status: 200, body: '{}' });
      const first = await server({
        status,
        headers: { location: `${other.url}/v1/steal?key=${KEY}` },
      });
      const error = await failure(post(`${first.url}/v1/chat`));
      expect(ModelRedirectError.is(error)).toBe(true);
      const redirect = error as ModelRedirectError;
      expect(redirect.status).toBe(status);
      expect(redirect.location).toBe(`${other.url}/v1/steal`);
      expect(redirect.message).toContain(`${other.url}/v1/steal`);
      expect(redirect.message).not.toContain(KEY);
      expect(isRetryable(redirect)).toBe(false);
      expect(other.requests).toHaveLength(0);
    },
  );

  test('headers a user adds never reach the other origin either', async () => {
    const other = await server({ status: 200, body: '{}' });
    const first = await server({ status: 307, headers: { location: other.url } });
    await failure(post(first.url, { 'x-custom-token': 'custom-secret-value' }));
    expect(other.requests).toHaveLength(0);
  });

  test('a scheme change on the same host is another origin', async () => {
    const first = await server({
      status: 308,
      headers: { location: 'https://127.0.0.1:1/v1/chat' },
    });
    const error = await failure(post(first.url));
    expect(ModelRedirectError.is(error)).toBe(true);
  });
});

describe('same-origin redirects', () => {
  test.each([307, 308])('a same-origin %i is followed with method, headers and body', async (s) => {
    const srv = await server();
    srv.push(
      { status: s, headers: { location: '/v2/chat' } },
      { status: 200, body: '{"ok":true}' },
    );
    const response = await post(`${srv.url}/v1/chat`);
    expect(await response.json()).toEqual({ ok: true });
    expect(srv.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/v1/chat'],
      ['POST', '/v2/chat'],
    ]);
    expect(srv.requests[1]?.json).toEqual({ messages: ['the conversation'] });
    expect(srv.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  test('a same-origin 302 would turn the POST into a GET, so it is refused', async () => {
    const srv = await server({ status: 302, headers: { location: '/elsewhere' } });
    const error = await failure(post(srv.url));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect((error as Error).message).toContain('method');
    expect(srv.requests).toHaveLength(1);
  });

  test(`more than ${MAX_REDIRECTS} hops is refused`, async () => {
    const srv = await server();
    for (let i = 0; i <= MAX_REDIRECTS; i++)
      srv.push({ status: 307, headers: { location: `/hop${i}` } });
    const error = await failure(post(srv.url));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect(srv.requests).toHaveLength(MAX_REDIRECTS + 1);
  });

  test('a redirect without a Location is refused', async () => {
    const srv = await server({ status: 307 });
    const error = await failure(post(srv.url));
    expect(ModelRedirectError.is(error)).toBe(true);
    expect((error as Error).message).toContain('no valid Location');
  });
});
