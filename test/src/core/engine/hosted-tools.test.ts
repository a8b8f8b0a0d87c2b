/**
 * Provider-hosted tools in the engine: declared on the agent, sent on every request apart from
 * the local tools, validated at construction, never executed; the evidence the model returns
 * (hosted calls, citations, response id) stays on the run's messages, and malformed evidence is
 * a model-stage failure.
 */
import {
  Agent,
  ConfigError,
  RunError,
  defineTool,
  fileSearchTool,
  webSearchTool,
  type HostedTool,
  type ModelResponse,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { ModelResponseError } from '../../../support/internal-errors';

const local = defineTool({
  name: 'lookup',
  description: 'Local lookup.',
  schema: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => 'local result',
});

const searched: ModelResponse = {
  message: {
    role: 'assistant',
    content: 'It is sunny.',
    hostedToolCalls: [{ id: 'ws_1', type: 'web_search', status: 'completed', input: '{"q":"x"}' }],
    citations: [{ type: 'url', url: 'https://w.example', start: 0, end: 12 }],
    responseId: 'resp_1',
  },
  usage: { inputTokens: 1, outputTokens: 1 },
};

test('hosted tools go on every request, after a local tool round trip, apart from the local tools', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'lookup', args: {} }]),
    searched,
  ]);
  const hostedTools = [webSearchTool({ maxUses: 2 }), fileSearchTool({ vectorStoreIds: ['vs_1'] })];
  const agent = new Agent({ model, tools: [local], hostedTools });
  const result = await agent.run('Weather?');
  expect(model.requests).toHaveLength(2);
  for (const request of model.requests) {
    expect(request.hostedTools).toEqual(hostedTools);
    expect(request.tools.map((t) => t.name)).toEqual(['lookup']);
  }
  expect(result.toolCalls).toBe(1); // only the local lookup ran
  expect(result.messages.at(-1)).toEqual(searched.message);
});

test('without hostedTools the request has no hostedTools field', async () => {
  const model = new ScriptedModel([textResponse('x')]);
  await new Agent({ model }).run('x');
  expect('hostedTools' in (model.lastRequest ?? {})).toBe(false);
});

test('a hosted call in the evidence is never executed, even when a local tool has its name', async () => {
  let ran = 0;
  const webSearch = defineTool({
    name: 'web_search',
    description: 'A local tool that shares the hosted tool name.',
    schema: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => String(++ran),
  });
  const model = new ScriptedModel([searched]);
  const result = await new Agent({ model, tools: [webSearch], hostedTools: [webSearchTool()] }).run(
    'x',
  );
  expect([ran, result.toolCalls, result.output]).toEqual([0, 0, 'It is sunny.']);
});

test.each<[string, unknown, string]>([
  [
    'not an array',
    webSearchTool(),
    'Agent `hostedTools` must be an array of hosted tools, e.g. [webSearchTool()]',
  ],
  [
    'an unknown type',
    [{ type: 'browser' }],
    'Agent `hostedTools[0]`: unknown hosted tool type "browser"; known: web_search, file_search, code_interpreter',
  ],
  [
    'a duplicate',
    [webSearchTool(), webSearchTool()],
    'Agent `hostedTools[1]`: a second web_search tool; declare each hosted tool once',
  ],
])('invalid hostedTools (%s) throw ConfigError at construction', (_name, hostedTools, message) => {
  const build = () =>
    new Agent({ model: new ScriptedModel([]), hostedTools: hostedTools as readonly HostedTool[] });
  expect(build).toThrow(ConfigError);
  expect(build).toThrow(message);
});

test('malformed evidence from a model fails the run at the model stage', async () => {
  const bad = { ...searched, message: { ...searched.message, citations: [{ url: 'x' }] } };
  const error: unknown = await new Agent({ model: new ScriptedModel([bad as ModelResponse]) })
    .run('x')
    .catch((e: unknown) => e);
  expect(RunError.is(error) && error.stage).toBe('model');
  expect(ModelResponseError.is((error as RunError).cause)).toBe(true);
  expect(((error as RunError).cause as Error).message).toBe(
    'invalid model response: citations[0].type must be a non-empty string',
  );
});
