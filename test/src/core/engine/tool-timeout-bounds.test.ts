/**
 * A hand-built tool's `timeout` (not made with `defineTool`) is held to the same bounds at agent
 * construction: a value no Node timer can hold would otherwise fire after 1 ms.
 */
import { Agent, ConfigError, type Tool } from 'golem';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

function handBuilt(timeout: unknown): Tool {
  return {
    name: 'lookup',
    description: 'A tool built by hand',
    schema: { type: 'object' },
    timeout: timeout as number,
    execute: () => 'found',
  };
}

test.each([Infinity, MAX_TIMEOUT_MS + 1, 3e9, -1, NaN, '5'])(
  'timeout %p is a ConfigError naming the tool and the bound',
  (timeout) => {
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [handBuilt(timeout)] })).toThrow(
      ConfigError,
    );
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [handBuilt(timeout)] })).toThrow(
      /^Agent `tools\[0\]` "lookup": timeout must be/,
    );
  },
);

test('the largest timer delay is accepted, and the tool runs within it', async () => {
  const agent = new Agent({
    model: new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'lookup' }]),
      textResponse('done'),
    ]),
    tools: [handBuilt(MAX_TIMEOUT_MS)],
  });
  const result = await agent.run('find it');
  expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('found');
});
