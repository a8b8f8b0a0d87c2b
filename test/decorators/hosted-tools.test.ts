/**
 * `@Agent({ hostedTools })` declares provider-hosted tools on a decorated class: they reach every
 * request of the compiled agent, validated like the engine's own option.
 */
import { webSearchTool } from 'golem';
import { Agent, agentFromClass } from 'golem/decorators';
import { ScriptedModel, textResponse } from 'golem/testing';

test('@Agent({ hostedTools }) sends them on every request', async () => {
  @Agent({ hostedTools: [webSearchTool({ contextSize: 'low' })] })
  class Researcher {}
  const model = new ScriptedModel([textResponse('found')]);
  const agent = agentFromClass(new Researcher(), { model });
  expect((await agent.run('Search')).output).toBe('found');
  expect(model.lastRequest?.hostedTools).toEqual([{ type: 'web_search', contextSize: 'low' }]);
});
