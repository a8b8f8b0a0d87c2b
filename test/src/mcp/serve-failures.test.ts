/**
 * Issue 25 item 9: every failure while serving a tool call — a `depsFor` that throws included —
 * is an `isError` result with the hidden-by-default text, through the real SDK client over
 * Streamable HTTP; the thrown message reaches the client only with `exposeErrors`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool } from 'golem';
import { createMcpServer, serveMcpHttp, type McpServeOptions } from 'golem/mcp';

const SECRET = 'connect postgres://admin:hunter2@db.internal/prod from /srv/app/deps.ts';

const whoami = defineTool<{ user: string }>({
  name: 'whoami',
  schema: { type: 'object' },
  execute: (_args, ctx) => ctx.deps.user,
});

/** Serves `whoami` with `options`, calls it once with the official SDK client, returns the answer. */
async function callWith(options: Partial<McpServeOptions<{ user: string }>>): Promise<unknown> {
  const serving = await serveMcpHttp(createMcpServer({ tools: [whoami], ...options }));
  const sdk = new Client({ name: 'sdk-test', version: '1' });
  try {
    await sdk.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    return await sdk.callTool({ name: 'whoami', arguments: {} });
  } finally {
    await sdk.close();
    await serving.close();
  }
}

describe('a depsFor that fails', () => {
  test.each([
    [
      'throws',
      () => {
        throw new Error(SECRET);
      },
    ],
    ['rejects', () => Promise.reject(new Error(SECRET))],
  ])(
    '%s: the client gets the isError result without the message; onError sees it',
    async (_label, depsFor) => {
      const seen: [string, string][] = [];
      const result = await callWith({
        depsFor,
        onError: (error, name) => seen.push([name, (error as Error).message]),
      });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'tool whoami failed' }],
        isError: true,
      });
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(seen).toEqual([['whoami', SECRET]]);
    },
  );

  test('with exposeErrors the message is shown, still as an isError result', async () => {
    const result = await callWith({
      exposeErrors: true,
      depsFor: () => {
        throw new Error('no such tenant');
      },
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'tool whoami failed: no such tenant' }],
      isError: true,
    });
  });

  test('a depsFor that succeeds still builds the deps of the call', async () => {
    expect(await callWith({ depsFor: () => ({ user: 'ada' }) })).toEqual({
      content: [{ type: 'text', text: 'ada' }],
    });
  });
});
