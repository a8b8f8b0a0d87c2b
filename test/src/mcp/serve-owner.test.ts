/**
 * Issue 25 item 4, the MCP server's door: `owner` takes the run owner from the request, and every
 * run a served agent with a run store starts for a call is stored with it — through the official
 * SDK client over Streamable HTTP against a real memory run store.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent, StoreError, defineTool, listRuns, loadRun, ConfigError } from 'golem';
import { createMcpServer, serveMcpHttp, type McpHttpServing } from 'golem/mcp';
import { memoryStore } from 'golem/stores/memory';
import { ScriptedModel, textResponse } from 'golem/testing';
import { caught } from './support';

const store = memoryStore();
const agent = new Agent({
  name: 'desk',
  store,
  model: new ScriptedModel([textResponse('one'), textResponse('two'), textResponse('three')]),
});
let serving: McpHttpServing;
beforeAll(async () => {
  serving = await serveMcpHttp(
    createMcpServer({
      agents: [{ agent, name: 'ask_desk', description: 'Ask the desk.' }],
      owner: (request) => {
        const user = request.headers?.['x-user'];
        if (user === 'mallory') throw new Error('token store at /srv/secrets unreachable');
        return typeof user === 'string' ? user : undefined;
      },
    }),
  );
});
afterAll(() => serving.close());

/** Calls ask_desk as `user` (no header when undefined) with the official SDK client. */
async function ask(user: string | undefined): Promise<unknown> {
  const sdk = new Client({ name: 'sdk-test', version: '1' });
  try {
    await sdk.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), {
        requestInit: { headers: user === undefined ? {} : { 'x-user': user } },
      }),
    );
    return await sdk.callTool({ name: 'ask_desk', arguments: { prompt: 'hello' } });
  } finally {
    await sdk.close();
  }
}

test("each call's run is stored with the request's owner; another owner cannot see it", async () => {
  expect(await ask('ada')).toEqual({ content: [{ type: 'text', text: 'one' }] });
  const [run] = await listRuns(store, { owner: 'ada' });
  expect([run?.agent, run?.owner, run?.status]).toEqual(['desk', 'ada', 'completed']);
  expect(await listRuns(store, { owner: 'bob' })).toEqual([]);
  const refused = await caught(() => loadRun(store, run?.id ?? '', { owner: 'bob' }));
  expect(StoreError.is(refused) && refused.reason).toBe('not-found');

  // A request without an owner starts an unowned run (operator access only).
  expect(await ask(undefined)).toEqual({ content: [{ type: 'text', text: 'two' }] });
  const all = await listRuns(store);
  expect(all.map((r) => r.owner).sort()).toEqual(['ada', undefined]);
  expect(await listRuns(store, { owner: 'ada' })).toHaveLength(1);
});

test('an owner function that throws fails the call with the hidden-by-default text; no run starts', async () => {
  const before = (await listRuns(store)).length;
  const result = await ask('mallory');
  expect(result).toEqual({
    content: [{ type: 'text', text: 'tool ask_desk failed' }],
    isError: true,
  });
  expect(await listRuns(store)).toHaveLength(before);
});

test('owner is a configuration error when no served agent has a run store', () => {
  const error = (() => {
    try {
      createMcpServer({
        tools: [defineTool({ name: 'ping', schema: { type: 'object' }, execute: () => 'pong' })],
        agents: [
          {
            agent: new Agent({ model: new ScriptedModel([textResponse('x')]) }),
            name: 'plain',
            description: 'No store.',
          },
        ],
        owner: () => 'ada',
      });
    } catch (thrown) {
      return thrown;
    }
    return undefined;
  })();
  expect(ConfigError.is(error, 'mcp') && [error.option, error.message]).toEqual([
    'owner',
    'mcp: option `owner` is set, but no served agent has a run store: no run is stored, so none has an owner',
  ]);
});
