import {
  Agent,
  decodeJSON,
  decodeText,
  errorChain,
  findError,
  ModelRetry,
  RunError,
  type DecodeContext,
  type ModelResponse,
} from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

interface City {
  name: string;
  country: string;
}

/** A validator in the shape decodeJSON takes: returns the typed value or throws. */
function city(value: unknown): City {
  if (typeof value !== 'object' || value === null) throw new Error('expected an object');
  const { name, country } = value as Record<string, unknown>;
  if (typeof name !== 'string') throw new Error('`name` must be a string');
  if (typeof country !== 'string') throw new Error('`country` must be a string');
  return { name, country };
}

const ctx: DecodeContext = { signal: new AbortController().signal, deps: undefined };

function response(content: string | undefined): ModelResponse {
  return {
    message: content === undefined ? { role: 'assistant' } : { role: 'assistant', content },
    usage: { inputTokens: 0, outputTokens: 0 },
  };
}

/** The ModelRetry the decoder rejects with (fails the test otherwise). */
async function retryOf(promise: Promise<unknown>): Promise<ModelRetry> {
  try {
    await promise;
  } catch (error) {
    const retry = findError(error, ModelRetry.is);
    if (retry !== undefined) return retry;
    throw new Error(`expected a ModelRetry in the chain, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection, the decoder resolved');
}

async function runError(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw new Error(`expected a RunError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a RunError, the run succeeded');
}

async function decode<O>(
  decoder: (r: ModelResponse, c: DecodeContext) => O | Promise<O>,
  content: string | undefined,
): Promise<O> {
  return decoder(response(content), ctx);
}

describe('decodeText', () => {
  test('returns the final content', async () => {
    expect(await decode(decodeText(), 'Hello.')).toBe('Hello.');
  });

  test('an empty answer decodes to ""', async () => {
    expect(await decode(decodeText(), undefined)).toBe('');
    expect(await decode(decodeText(), '')).toBe('');
  });
});

describe('decodeJSON (spec §7)', () => {
  test('DJ-1 {"name":"Lagos","country":"Nigeria"} decodes to the typed value', async () => {
    const value: City = await decode(decodeJSON(city), '{"name":"Lagos","country":"Nigeria"}');
    expect(value).toEqual({ name: 'Lagos', country: 'Nigeria' });
  });

  test('DJ-1 through a run: the output is the validated value', async () => {
    const agent = new Agent<undefined, City>({
      model: new ScriptedModel([textResponse('{"name":"Lagos","country":"Nigeria"}')]),
      output: decodeJSON(city),
    });
    const result = await agent.run('Where?');
    expect(result.output).toEqual({ name: 'Lagos', country: 'Nigeria' });
  });

  test('DJ-1 without a validator the parsed value is returned unchecked, unknown keys kept', async () => {
    expect(await decode(decodeJSON(), '{"a":1,"extra":[true]}')).toEqual({ a: 1, extra: [true] });
  });

  test('DJ-1 `null` content decodes without error (to null when there is no validator)', async () => {
    expect(await decode(decodeJSON(), 'null')).toBeNull();
  });

  test('DJ-2 content `Lagos` is rejected with a ModelRetry saying it is not valid JSON', async () => {
    const retry = await retryOf(decode(decodeJSON(city), 'Lagos'));
    expect(retry.reason).toContain('not valid JSON');
    expect(retry.message).toBe(`model output rejected: ${retry.reason}`);
  });

  test('DJ-2 trailing text after a JSON value is rejected with a ModelRetry', async () => {
    const retry = await retryOf(
      decode(decodeJSON(city), '{"name":"Lagos","country":"Nigeria"} and more'),
    );
    expect(retry.reason).toContain('not valid JSON');
  });

  test.each<[string, string | undefined]>([
    ['absent', undefined],
    ['empty', ''],
    ['whitespace-only', '  \n\t'],
  ])('DJ-2 %s content is rejected with a ModelRetry', async (_label, content) => {
    const retry = await retryOf(decode(decodeJSON(city), content));
    expect(retry.reason).toContain('empty');
  });

  test('DJ-2 a null content (a response no engine normalised) is rejected as empty too', async () => {
    const raw = { message: { role: 'assistant', content: null }, usage: response('').usage };
    const retry = await retryOf(
      Promise.resolve(decodeJSON(city)(raw as unknown as ModelResponse, ctx)),
    );
    expect(retry.reason).toBe('the response is empty; respond with a JSON value only');
  });

  test('DJ-2 a validator that throws a plain error becomes a ModelRetry whose reason carries its message', async () => {
    const plain = new Error('`country` must be a full name');
    const decoder = decodeJSON<City>(() => {
      throw plain;
    });
    const retry = await retryOf(decode(decoder, '{"name":"Lagos","country":"NG"}'));
    expect(retry.reason).toContain('`country` must be a full name');
    expect(retry.cause).toBe(plain);
  });

  test('DJ-2 a ModelRetry thrown by the validator passes through unchanged', async () => {
    const own = new ModelRetry('country must be a full name');
    const retry = await retryOf(
      decode(
        decodeJSON(() => {
          throw own;
        }),
        '{}',
      ),
    );
    expect(retry).toBe(own);
  });

  test('DJ-3 with outputRetries 1, `Lagos` then valid JSON succeeds: 2 model calls, 4 messages with `Lagos` at index 1', async () => {
    const expected = await retryOf(decode(decodeJSON(city), 'Lagos'));
    const scripted = new ScriptedModel([
      textResponse('Lagos'),
      textResponse('{"name":"Lagos","country":"Nigeria"}'),
    ]);
    const agent = new Agent<undefined, City>({
      model: scripted,
      output: decodeJSON(city),
      outputRetries: 1,
    });
    const result = await agent.run('Where?');
    expect(result.output).toEqual({ name: 'Lagos', country: 'Nigeria' });
    expect(scripted.calls).toBe(2);
    expect(result.messages).toEqual([
      { role: 'user', content: 'Where?' },
      { role: 'assistant', content: 'Lagos' },
      {
        role: 'user',
        content: `Your previous response was rejected: ${expected.reason}. Correct it and respond again.`,
      },
      { role: 'assistant', content: '{"name":"Lagos","country":"Nigeria"}' },
    ]);
    expect(scripted.requests[1]?.messages).toEqual(result.messages.slice(0, 3));
  });

  test('DJ-4 without a budget, `Lagos` fails the run at the decode stage with the ModelRetry in the chain', async () => {
    const scripted = new ScriptedModel([
      textResponse('Lagos', { inputTokens: 5, outputTokens: 1 }),
    ]);
    const agent = new Agent<undefined, City>({ model: scripted, output: decodeJSON(city) });
    const error = await runError(agent.run('Where?'));
    expect(error.stage).toBe('decode');
    const retry = [...errorChain(error)].find(ModelRetry.is);
    expect(retry?.reason).toContain('not valid JSON');
    expect(scripted.calls).toBe(1);
    expect(error.partial).toEqual({
      messages: [
        { role: 'user', content: 'Where?' },
        { role: 'assistant', content: 'Lagos' },
      ],
      usage: { inputTokens: 5, outputTokens: 1 },
      requests: 1,
      toolCalls: 0,
    });
  });
});
