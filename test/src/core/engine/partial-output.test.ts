import {
  Agent,
  ModelRetry,
  RunError,
  decodeJSON,
  defineTool,
  errorChain,
  type DeepPartial,
  type ModelResponse,
  type RunEvent,
} from 'golem';
import { StreamFunctionModel, textResponse } from 'golem/testing';

import { StreamAbandonedError } from '../../../support/internal-errors';
interface Forecast {
  city: string;
  celsius: number;
  tags: string[];
}

const FORECAST_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    celsius: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city', 'celsius', 'tags'],
};

const ANSWER = '{"city": "Lagos", "celsius": 31, "tags": ["humid", "sunny"]}';

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function forecast(value: unknown): Forecast {
  const v = value as Forecast;
  if (typeof v.city !== 'string' || typeof v.celsius !== 'number')
    throw new ModelRetry('bad shape');
  return v;
}

/** Streams `text` as content fragments of `size` characters. */
function nativeModel(texts: string[], size = 4): StreamFunctionModel {
  let turn = 0;
  return new StreamFunctionModel(async (_request, emit): Promise<ModelResponse> => {
    const text = texts[turn++] ?? '';
    for (const piece of chunks(text, size)) await emit({ content: piece });
    return textResponse(text);
  });
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('streaming structured output: partialOutput', () => {
  test('native schema: snapshots grow with the JSON and end with the validated output', async () => {
    const agent = new Agent<undefined, Forecast>({
      model: nativeModel([ANSWER]),
      outputSchema: FORECAST_SCHEMA,
      output: decodeJSON(forecast),
    });
    const stream = agent.runStream('Weather in Lagos?');
    const seen: DeepPartial<Forecast>[] = [];
    for await (const partial of stream.partialOutput) seen.push(structuredClone(partial));
    const result = await stream.result;

    expect(seen.at(-1)).toEqual(result.output);
    expect(seen).toContainEqual({ city: 'La' });
    expect(seen).toContainEqual({ city: 'Lagos' });
    expect(seen).toContainEqual({ city: 'Lagos', celsius: 31, tags: ['h'] });
    // Numbers appear only once finished: never a "3" on the way to 31.
    expect(seen.some((p) => p.celsius === 3)).toBe(false);
    // No two consecutive snapshots are the same (the final value always comes).
    for (let i = 1; i < seen.length - 1; i++) expect(seen[i]).not.toEqual(seen[i - 1]);
  });

  test('tool mode: snapshots come from the output call arguments only', async () => {
    const model = new StreamFunctionModel(async (_request, emit): Promise<ModelResponse> => {
      await emit({ toolCalls: [{ index: 0, id: 'c0', name: 'lookup', argsFragment: '{"q": "x' }] });
      await emit({ toolCalls: [{ index: 1, id: 'c1', name: 'final_result', argsFragment: '' }] });
      for (const piece of chunks(ANSWER, 7)) {
        await emit({ toolCalls: [{ index: 1, argsFragment: piece }] });
        await emit({ toolCalls: [{ index: 0, argsFragment: '"}' }] }); // a sibling's fragments
      }
      return {
        message: {
          role: 'assistant',
          toolCalls: [
            { id: 'c0', name: 'lookup', args: '{"q": "x"}' },
            { id: 'c1', name: 'final_result', args: ANSWER },
          ],
        },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    });
    const lookup = defineTool({ name: 'lookup', schema: { type: 'object' }, execute: () => 'x' });
    const agent = new Agent<undefined, Forecast>({
      model,
      tools: [lookup],
      outputTool: { name: 'final_result', schema: FORECAST_SCHEMA },
      output: decodeJSON(forecast),
    });
    const stream = agent.runStream('Weather?');
    const seen = (await all(stream.partialOutput)).map((p) => structuredClone(p));

    expect(seen[0]).toEqual({});
    expect(seen).toContainEqual({ city: 'Lagos', celsius: 31 });
    expect(seen.at(-1)).toEqual({ city: 'Lagos', celsius: 31, tags: ['humid', 'sunny'] });
    expect(JSON.stringify(seen)).not.toContain('"q"');
  });

  test('each model turn starts over: a tool turn’s text is not part of the answer', async () => {
    const roll = defineTool({ name: 'roll', schema: { type: 'object' }, execute: () => '4' });
    let turn = 0;
    const model = new StreamFunctionModel(async (_request, emit): Promise<ModelResponse> => {
      if (turn++ === 0) {
        await emit({ content: 'Rolling' });
        await emit({ toolCalls: [{ index: 0, id: 'r', name: 'roll' }] });
        return {
          message: {
            role: 'assistant',
            content: 'Rolling',
            toolCalls: [{ id: 'r', name: 'roll', args: '{}' }],
          },
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      }
      await emit({ content: 'You rolled ' });
      await emit({ content: 'a 4.' });
      return textResponse('You rolled a 4.');
    });
    const agent = new Agent({ model, tools: [roll] });
    const stream = agent.runStream('Roll');
    const seen: string[] = [];
    for await (const partial of stream.partialOutput) seen.push(partial);

    expect(seen).toEqual(['Rolling', 'You rolled ', 'You rolled a 4.', 'You rolled a 4.']);
    expect(seen.some((s) => s.startsWith('Rolling') && s.length > 7)).toBe(false);
  });

  test('a correction round restarts the partials and the last value is the corrected output', async () => {
    const agent = new Agent<undefined, Forecast>({
      model: nativeModel(['{"city": 7}', ANSWER], 50),
      outputSchema: FORECAST_SCHEMA,
      output: decodeJSON(forecast),
      outputRetries: 1,
    });
    const stream = agent.runStream('Weather?');
    const seen = await all(stream.partialOutput);

    expect(seen[0]).toEqual({ city: 7 });
    expect(seen.at(-1)).toEqual((await stream.result).output);
  });

  test('a reader that starts late sees the final output only (snapshots coalesce)', async () => {
    const agent = new Agent<undefined, Forecast>({
      model: nativeModel([ANSWER], 1),
      outputSchema: FORECAST_SCHEMA,
      output: decodeJSON(forecast),
    });
    const stream = agent.runStream('Weather?');
    const result = await stream.result;

    expect(await all(stream.partialOutput)).toEqual([result.output]);
  });

  test('a reader that starts mid-answer sees the answer from its start, then the rest', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let halfway!: () => void;
    const streamedHalf = new Promise<void>((resolve) => (halfway = resolve));
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'Hel' });
      await emit({ content: 'lo' });
      halfway();
      await released;
      await emit({ content: ', world' });
      return textResponse('Hello, world');
    });
    const stream = new Agent({ model }).runStream('greet');
    await streamedHalf;
    const partials = stream.partialOutput[Symbol.asyncIterator]();
    expect(await partials.next()).toEqual({ value: 'Hello', done: false });
    release();
    const rest: unknown[] = [];
    for (let step = await partials.next(); step.done !== true; step = await partials.next())
      rest.push(step.value);
    expect(rest.at(-1)).toBe('Hello, world');
    expect((await stream.result).output).toBe('Hello, world');
  });

  test('a failed run ends the partials without a final value; result carries the error', async () => {
    const agent = new Agent<undefined, Forecast>({
      model: nativeModel(['{"city": "Lagos"}'], 50),
      outputSchema: FORECAST_SCHEMA,
      output: decodeJSON(forecast),
    });
    const stream = agent.runStream('Weather?');
    const seen = await all(stream.partialOutput);

    expect(seen).toEqual([{ city: 'Lagos' }]);
    await expect(stream.result).rejects.toMatchObject({ stage: 'decode' });
  });

  test('stopping the partial iteration ends the run at the model stage', async () => {
    const agent = new Agent<undefined, Forecast>({
      model: nativeModel([ANSWER], 2),
      outputSchema: FORECAST_SCHEMA,
      output: decodeJSON(forecast),
    });
    const stream = agent.runStream('Weather?');
    for await (const partial of stream.partialOutput) if (partial.city !== undefined) break;

    const error = await stream.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error) && error.stage).toBe('model');
    expect([...errorChain(error)].some((e) => StreamAbandonedError.is(e))).toBe(true);
  });

  test('the caller’s observer still sees every event; deltas still stream', async () => {
    const events: RunEvent['kind'][] = [];
    const agent = new Agent({ model: nativeModel(['hello world'], 5) });
    const stream = agent.runStream('Hi', { observer: (e) => events.push(e.kind) });
    const deltas = await all(stream);
    await stream.result;

    expect(deltas.map((d) => d.content).join('')).toBe('hello world');
    expect(events).toEqual(['model_start', 'model_end']);
  });

  test('an observer that is not a function is still rejected as run input', async () => {
    const agent = new Agent({ model: nativeModel(['x']) });
    const stream = agent.runStream('Hi', { observer: 'nope' as unknown as () => void });
    await expect(stream.result).rejects.toMatchObject({ kind: 'RunInputError' });
  });
});
