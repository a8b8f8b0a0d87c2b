import { ConfigError, type ModelRequest } from 'golem';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import { EvalError } from '../../src/evals/eval-error';
import { generateCases } from '../../src/evals/generate-cases';

function answer(cases: unknown): ReturnType<typeof textResponse> {
  return textResponse(JSON.stringify({ cases }));
}

function lastUserText(request: ModelRequest): string {
  const user = request.messages.filter((m) => m.role === 'user').at(-1);
  return user?.content ?? '';
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('generateCases', () => {
  it('asks with native structured output and returns the cases', async () => {
    const requests: ModelRequest[] = [];
    const model = new FunctionModel((request) => {
      requests.push(request);
      return answer([
        { name: 'lagos', input: { city: 'Lagos' }, expected: 'sunny' },
        { name: 'paris', input: { city: 'Paris' } },
      ]);
    });
    const inputSchema = { type: 'object', properties: { city: { type: 'string' } } };
    const cases = await generateCases({
      model,
      description: 'weather questions about African and European cities',
      count: 2,
      inputSchema,
      examples: [{ name: 'example-case', input: { city: 'Accra' }, expected: 'hot' }],
    });
    expect(cases).toEqual([
      { name: 'lagos', input: { city: 'Lagos' }, expected: 'sunny' },
      { name: 'paris', input: { city: 'Paris' } },
    ]);
    expect(requests).toHaveLength(1);
    const request = requests[0] as ModelRequest;
    const schema = request.outputSchema as {
      properties: { cases: { items: { properties: { input: unknown; expected: unknown } } } };
    };
    expect(schema.properties.cases.items.properties.input).toEqual(inputSchema);
    expect(schema.properties.cases.items.properties.expected).toEqual({ type: 'string' });
    const prompt = lastUserText(request);
    expect(prompt).toContain('exactly 2 test cases');
    expect(prompt).toContain('weather questions about African and European cities');
    expect(prompt).toContain(JSON.stringify(inputSchema));
    expect(prompt).toContain('example-case');
  });

  it('suffixes duplicate names with -2, -3 without taking a name already used', async () => {
    const model = new ScriptedModel([
      answer([
        { name: 'greet', input: 'a' },
        { name: 'greet', input: 'b' },
        { name: 'greet-2', input: 'c' },
        { name: 'greet', input: 'd' },
      ]),
    ]);
    const cases = await generateCases({ model, description: 'greetings', count: 4 });
    expect(cases.map((c) => c.name)).toEqual(['greet', 'greet-3', 'greet-2', 'greet-4']);
    expect(cases.map((c) => c.input)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('drops cases beyond count', async () => {
    const model = new ScriptedModel([
      answer([
        { name: 'a', input: '1' },
        { name: 'b', input: '2' },
        { name: 'c', input: '3' },
      ]),
    ]);
    const cases = await generateCases({ model, description: 'x', count: 2 });
    expect(cases.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('fails with EvalError dataset saying how many came back when too few', async () => {
    const model = new ScriptedModel([answer([{ name: 'a', input: '1' }])]);
    const error = await caught(generateCases({ model, description: 'x', count: 3 }));
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as Error).message).toContain('asked for 3 cases, the model returned 1');
  });

  it('sends a badly shaped answer back for correction and uses the corrected one', async () => {
    const model = new ScriptedModel([
      answer([{ input: 'no name' }]),
      textResponse('{"cases": "nope"}'),
      answer([{ name: 'fixed', input: 'ok' }]),
    ]);
    const cases = await generateCases({ model, description: 'x', count: 1 });
    expect(cases).toEqual([{ name: 'fixed', input: 'ok' }]);
    expect(model.calls).toBe(3);
    const retryText = JSON.stringify(model.requests[1]?.messages);
    expect(retryText).toContain('cases[0].name must be a non-empty string');
  });

  it('gives up after two corrections with EvalError dataset', async () => {
    const bad = textResponse('not json');
    const model = new ScriptedModel([bad, bad, bad]);
    const error = await caught(generateCases({ model, description: 'x', count: 1 }));
    expect(EvalError.isKind(error, 'dataset')).toBe(true);
    expect((error as Error).message).toContain('the model gave no valid cases');
    expect(model.calls).toBe(3);
  });

  it('rejects a wrong count or description with a ConfigError before calling the model', async () => {
    const model = new ScriptedModel([]);
    for (const options of [
      { model, description: 'x', count: 0 },
      { model, description: 'x', count: 1.5 },
      { model, description: ' ', count: 1 },
      { model, description: 'x', count: 1, inputSchema: 'string' as never },
      { model, description: 'x', count: 1, examples: {} as never },
    ]) {
      const error = await caught(generateCases(options));
      expect(ConfigError.is(error)).toBe(true);
    }
    expect(model.calls).toBe(0);
  });

  it('passes the signal to the run', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModel([answer([{ name: 'a', input: '1' }])]);
    await expect(
      generateCases({ model, description: 'x', count: 1, signal: controller.signal }),
    ).rejects.toThrow();
    expect(model.calls).toBe(0);
  });
});
