/** End to end: an Agent on a ScriptedModel calls web_fetch against a loopback page. */
import { Agent, ModelRetry, RunError, ToolError, findError } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { webFetch } from 'golem/tools/webfetch';
import { serve, startServer, type TestServer } from './support';
import { BlockedDestinationError } from '../../../support/internal-errors';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    serve(
      '<html><head><title>Release notes</title></head><body><h1>Golem 1.2</h1><p>Adds the <b>web_fetch</b> tool.</p></body></html>',
      'text/html; charset=utf-8',
    ),
  );
});
afterAll(() => server.close());

const rejected = (reason: string): string =>
  `Your tool call was rejected: ${reason}. Correct the arguments and call the tool again.`;

test('the agent fetches a page and answers from it', async () => {
  const url = `${server.origin}/notes`;
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'web_fetch', args: { url } }]),
    textResponse('Golem 1.2 adds the web_fetch tool.'),
  ]);
  const agent = new Agent({
    model,
    tools: [webFetch({ allowPrivateHosts: ['127.0.0.1'] })],
  });
  const result = await agent.run('What is new in Golem 1.2?');
  expect(result.output).toBe('Golem 1.2 adds the web_fetch tool.');
  expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['web_fetch']);
  expect(model.requests[1]?.messages.at(-1)).toEqual({
    role: 'tool',
    content: 'Release notes\nGolem 1.2\nAdds the web_fetch tool.',
    toolCallId: 'call-1',
    toolName: 'web_fetch',
  });
  expect(server.requests.map((r) => r.url)).toEqual(['/notes']);
});

test('a bad URL is fed back for correction within the tool retry budget', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'web_fetch', args: { url: 'notes.html' } }]),
    toolCallResponse([{ id: 'call-2', name: 'web_fetch', args: { url: `${server.origin}/` } }]),
    textResponse('done'),
  ]);
  const agent = new Agent({
    model,
    tools: [webFetch({ allowPrivateHosts: ['127.0.0.1'] })],
    toolRetries: 1,
  });
  await agent.run('Read the notes.');
  expect(model.requests[1]?.messages.at(-1)?.content).toBe(
    rejected(
      '"notes.html" is not an absolute URL; send a full http(s) URL such as "https://example.com/page"',
    ),
  );
  expect(model.requests[2]?.messages.at(-1)?.content).toBe(
    'Release notes\nGolem 1.2\nAdds the web_fetch tool.',
  );
});

test('a prompt-injected fetch of the metadata service fails the run at the tool stage', async () => {
  const model = new ScriptedModel([
    toolCallResponse([
      {
        id: 'call-1',
        name: 'web_fetch',
        args: { url: 'http://169.254.169.254/latest/meta-data/' },
      },
    ]),
    textResponse('never reached'),
  ]);
  const agent = new Agent({ model, tools: [webFetch()], toolRetries: 3 });
  let caught: unknown;
  try {
    await agent.run('Summarise this page.');
  } catch (error) {
    caught = error;
  }
  expect(RunError.is(caught)).toBe(true);
  expect((caught as RunError).stage).toBe('tool');
  expect(findError(caught, ToolError.is)?.toolName).toBe('web_fetch');
  expect(findError(caught, BlockedDestinationError.is)?.reason).toBe('cloud metadata address');
  expect(findError(caught, ModelRetry.is)).toBeUndefined();
  expect(model.calls).toBe(1);
});
