/**
 * A `defineTool({ args })` tool validates synchronously when its schema does (issue 21): no
 * promise per call on the hot path. An async schema, or one returning any thenable, is still
 * awaited, and failures still reach the model as the same `ModelRetry`.
 */
import { z } from 'zod';
import {
  Agent,
  ModelRetry,
  defineTool,
  schemaOutput,
  type StandardSchemaV1,
  type ToolContext,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const ctx = {
  deps: undefined,
  signal: new AbortController().signal,
  callId: 'c1',
  toolName: 'add',
  rawArgs: '{}',
  approved: false,
  retry: 0,
} as ToolContext;

const add = defineTool({
  name: 'add',
  args: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

/** A Standard Schema whose validate answers through a thenable that is not a Promise. */
function thenableSchema(valid: boolean): StandardSchemaV1<unknown, { n: number }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'thenable-test',
      validate: (value) =>
        ({
          then(resolve: (r: unknown) => void) {
            resolve(valid ? { value } : { issues: [{ message: 'bad n', path: ['n'] }] });
          },
        }) as unknown as ReturnType<
          StandardSchemaV1<unknown, { n: number }>['~standard']['validate']
        >,
    },
  };
}

describe('sync validation of tool arguments', () => {
  test('a synchronous schema gives the result without a promise', () => {
    expect(add.execute({ a: 1, b: 2 }, ctx)).toBe('3');
  });

  test('invalid arguments throw the same ModelRetry the run feeds back', async () => {
    expect(() => add.execute({ a: 'x', b: 2 }, ctx)).toThrow(ModelRetry);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'add', args: { a: 'x', b: 2 } }]),
      textResponse('fixed'),
    ]);
    const result = await new Agent({ model, tools: [add], toolRetries: 1 }).run('go');
    expect(result.messages.find((m) => m.role === 'tool')?.content).toContain(
      'a: Invalid input: expected number',
    );
  });

  test('an async refinement is awaited', async () => {
    const slow = defineTool({
      name: 'slow',
      args: z.object({ n: z.number() }).refine(async (v) => Promise.resolve(v.n > 0), 'n > 0'),
      execute: ({ n }) => `n=${n}`,
    });
    const out = slow.execute({ n: 2 }, ctx);
    expect(out).toBeInstanceOf(Promise);
    await expect(out).resolves.toBe('n=2');
    await expect(slow.execute({ n: -1 }, ctx)).rejects.toThrow(ModelRetry);
  });

  test('a validate returning a thenable that is not a Promise is awaited like one', async () => {
    const ok = defineTool({
      name: 'ok',
      schema: { type: 'object' },
      args: thenableSchema(true),
      execute: ({ n }) => `n=${n}`,
    });
    await expect(Promise.resolve(ok.execute({ n: 4 }, ctx))).resolves.toBe('n=4');
    const bad = defineTool({
      name: 'bad',
      schema: { type: 'object' },
      args: thenableSchema(false),
      execute: () => 'never',
    });
    await expect(Promise.resolve(bad.execute({ n: 4 }, ctx))).rejects.toThrow('n: bad n');
  });
});

describe('sync validation of structured output', () => {
  test('a zod output and a thenable output schema both decode, and both reject bad JSON values', async () => {
    const zodAgent = (text: string) =>
      new Agent({
        model: new ScriptedModel([textResponse(text)]),
        outputRetries: 0,
        ...schemaOutput(z.object({ city: z.string() })),
      });
    await expect(zodAgent('{"city":"Lagos"}').run('go')).resolves.toMatchObject({
      output: { city: 'Lagos' },
    });
    await expect(zodAgent('{"city":7}').run('go')).rejects.toThrow(/city/);
    const thenAgent = (valid: boolean) =>
      new Agent({
        model: new ScriptedModel([textResponse('{"n":1}')]),
        outputRetries: 0,
        ...schemaOutput(thenableSchema(valid), { schema: { type: 'object' } }),
      });
    await expect(thenAgent(true).run('go')).resolves.toMatchObject({ output: { n: 1 } });
    await expect(thenAgent(false).run('go')).rejects.toThrow(/bad n/);
  });
});
