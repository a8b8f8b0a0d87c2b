/**
 * `defineTool` renders `execute`'s return value for the model (strings as-is, `undefined` as `''`,
 * other values as JSON). Hand-built `Tool` objects keep the `Tool` contract: they return text.
 */
import { Agent, RunError, defineTool, errorChain, type Tool } from 'golem';
import { renderToolResult } from '../../../../src/core/tool/tool-result';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const context = {
  deps: undefined,
  signal: new AbortController().signal,
  callId: 'c1',
  toolName: 'probe',
  rawArgs: '{}',
  approved: false,
  retry: 0,
};

test('renderToolResult: strings as-is, undefined as empty, anything else as JSON', () => {
  expect(renderToolResult('t', 'text')).toBe('text');
  expect(renderToolResult('t', undefined)).toBe('');
  expect(renderToolResult('t', { a: [1, null] })).toBe('{"a":[1,null]}');
  expect(renderToolResult('t', 0)).toBe('0');
});

test('a synchronous execute stays synchronous; an async one gives a promise of the text', async () => {
  const sync = defineTool({ name: 'probe', schema: { type: 'object' }, execute: () => ({ n: 1 }) });
  const async = defineTool({
    name: 'probe',
    schema: { type: 'object' },
    execute: async () => ({ n: 2 }),
  });
  expect(sync.execute({}, context)).toBe('{"n":1}');
  await expect(async.execute({}, context)).resolves.toBe('{"n":2}');
});

test('a typed parse result reaches execute, and the object it returns reaches the model as JSON', async () => {
  const tool = defineTool({
    name: 'sum',
    schema: { type: 'object' },
    parse: (value) => value as { a: number; b: number },
    execute: ({ a, b }) => ({ sum: a + b }),
  });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'sum', args: { a: 1, b: 2 } }]),
    textResponse('3'),
  ]);
  const result = await new Agent({ model, tools: [tool] }).run('Add');
  expect(result.messages[2]?.content).toBe('{"sum":3}');
});

test('a hand-built Tool that returns a non-string still fails at the tool stage', async () => {
  const tool = {
    name: 'raw',
    description: '',
    schema: { type: 'object' },
    execute: () => 42 as unknown as string,
  } satisfies Tool;
  const model = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'raw', args: {} }])]);
  const error = await new Agent({ model, tools: [tool] }).run('go').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(RunError.is(error) && error.stage).toBe('tool');
  expect([...errorChain(error)].map((e) => (e as Error).message)).toContain(
    'tool "raw" returned number; a tool must return a string for the model',
  );
});
