/**
 * `defineTool`'s `execute` and a decorated `@Tool` method render what they return the same way:
 * strings as-is, `undefined` as `''`, any other JSON value as its JSON text; a value with no JSON
 * form fails the run at the `tool` stage with a `ToolResultError` naming the tool.
 */
import { Agent as EngineAgent, RunError, defineTool, errorChain, type Message } from 'golem';
import { Agent, NoArgs, Tool, agentFromClass } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { ToolResultError } from '../support/internal-errors';

const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;

/** What a tool returns, and the tool message the model then reads. */
const RENDERED: [string, () => unknown, string][] = [
  ['a string, as-is', () => 'sunny, 31°C', 'sunny, 31°C'],
  ['a string that looks like JSON, as-is', () => '{"a":1}', '{"a":1}'],
  ['an empty string', () => '', ''],
  ['a number', () => 31, '31'],
  ['a boolean', () => false, 'false'],
  ['null', () => null, 'null'],
  ['an object', () => ({ city: 'Lagos', celsius: 31 }), '{"city":"Lagos","celsius":31}'],
  ['an array', () => [1, 'two', { three: 3 }], '[1,"two",{"three":3}]'],
  ['a Date (toJSON honoured)', () => new Date(Date.UTC(2024, 0, 2)), '"2024-01-02T00:00:00.000Z"'],
  ['undefined (a void tool)', () => undefined, ''],
  ['a promise of an object', () => Promise.resolve({ ok: true }), '{"ok":true}'],
  ['a promise of undefined', async () => {}, ''],
];

/** What fails, and the ToolResultError message. */
const UNRENDERABLE: [string, () => unknown, string | RegExp][] = [
  [
    'a function',
    () => () => 1,
    'tool "probe" returned a function, which has no JSON form; return a string or a JSON-serialisable value',
  ],
  [
    'a symbol',
    () => Symbol('s'),
    'tool "probe" returned a symbol, which has no JSON form; return a string or a JSON-serialisable value',
  ],
  [
    'a bigint',
    () => BigInt(1),
    /^tool "probe" returned a value that cannot be encoded as JSON \(.*BigInt.*\); return a string or a JSON-serialisable value$/,
  ],
  [
    'a cycle',
    () => circular,
    /^tool "probe" returned a value that cannot be encoded as JSON \(.*circular.*\); return a string or a JSON-serialisable value$/,
  ],
];

function script(): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'probe', args: {} }]),
    textResponse('done'),
  ]);
}

/** Runs `returns` as a `defineTool` tool. */
function viaDefineTool(returns: () => unknown) {
  const tool = defineTool({ name: 'probe', schema: { type: 'object' }, execute: () => returns() });
  return new EngineAgent({ model: script(), tools: [tool] }).run('go');
}

/** Runs `returns` as a decorated `@Tool` method. */
function viaDecoratedTool(returns: () => unknown) {
  @Agent()
  class Probe {
    @Tool() probe(_args: NoArgs): unknown {
      return returns();
    }
  }
  return agentFromClass(new Probe(), { model: script() }).run('go');
}

function toolMessage(messages: readonly Message[]): Message | undefined {
  return messages.find((m) => m.role === 'tool');
}

describe.each(RENDERED)('a tool returning %s', (_what, returns, expected) => {
  test('gives the same tool message through defineTool and @Tool', async () => {
    const plain = toolMessage((await viaDefineTool(returns)).messages);
    const decorated = toolMessage((await viaDecoratedTool(returns)).messages);
    expect(plain).toEqual({ role: 'tool', content: expected, toolCallId: 'c1', toolName: 'probe' });
    expect(decorated).toEqual(plain);
  });
});

describe.each(UNRENDERABLE)('a tool returning %s', (_what, returns, message) => {
  test.each([
    ['defineTool', viaDefineTool],
    ['@Tool', viaDecoratedTool],
  ])('fails the run at the tool stage through %s', async (_path, run) => {
    const error = await run(returns).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error) && error.stage).toBe('tool');
    const cause = [...errorChain(error)].find((e) => ToolResultError.is(e));
    expect(cause).toBeDefined();
    expect((cause as ToolResultError).toolName).toBe('probe');
    expect((cause as Error).message).toMatch(message);
  });
});
