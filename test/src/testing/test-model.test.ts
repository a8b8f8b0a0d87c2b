import fc from 'fast-check';
import { CancelledError, type Delta, type Message, type ModelRequest, type ToolSpec } from 'golem';
import { TestModel } from 'golem/testing';
import { wordChunks } from '../../../src/testing/test-model';
import { SchemaSampleError } from '../../support/internal-errors';

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather for a city',
  schema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city', 'days'],
    additionalProperties: false,
  },
};
const time: ToolSpec = {
  name: 'get_time',
  description: 'Current time',
  schema: { type: 'object' },
};
const record: ToolSpec = {
  name: 'record_weather',
  description: 'Record the final answer',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' }, celsius: { type: 'integer', minimum: -50 } },
    required: ['city', 'celsius'],
  },
  output: true,
};

function ask(tools: ToolSpec[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    messages: [{ role: 'user', content: 'What is the weather in Lagos?' }],
    tools,
    ...extra,
  };
}

/** Appends the assistant turn and a result per call, as the engine would. */
function answer(
  req: ModelRequest,
  assistant: Message,
  results: Record<string, string>,
): ModelRequest {
  const messages = [...req.messages, assistant];
  for (const call of assistant.toolCalls ?? []) {
    messages.push({
      role: 'tool',
      content: results[call.name] ?? '',
      toolCallId: call.id,
      toolName: call.name,
    });
  }
  return { ...req, messages };
}

describe('TestModel', () => {
  test('first calls every advertised tool once with schema-valid arguments', async () => {
    const model = new TestModel();

    const response = await model.generate(ask([weather, time]));

    const calls = response.message.toolCalls ?? [];
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ['test-call-1', 'get_weather'],
      ['test-call-2', 'get_time'],
    ]);
    const args = JSON.parse(calls[0]!.args) as Record<string, unknown>;
    expect(args).toEqual({ city: 'aa', days: 1, unit: 'celsius' });
    expect(JSON.parse(calls[1]!.args)).toEqual({});
    expect(response.finishReason).toBe('tool_calls');
  });

  test('then finishes with text mapping each called tool to its result', async () => {
    const model = new TestModel();
    const first = ask([weather, time]);
    const turn = await model.generate(first);

    const final = await model.generate(
      answer(first, turn.message, { get_weather: 'sunny', get_time: '12:00' }),
    );

    expect(final.message).toEqual({
      role: 'assistant',
      content: '{"get_weather":"sunny","get_time":"12:00"}',
    });
    expect(final.finishReason).toBe('stop');
    expect(model.calls).toBe(2);
  });

  test('answers "success (no tool calls)" without tools, or the configured text', async () => {
    expect((await new TestModel().generate(ask([]))).message.content).toBe(
      'success (no tool calls)',
    );
    expect(
      (await new TestModel({ text: 'Lagos is warm.' }).generate(ask([]))).message.content,
    ).toBe('Lagos is warm.');
  });

  test('call ids stay unique across conversations', async () => {
    const model = new TestModel();
    await model.generate(ask([weather]));
    const again = await model.generate(ask([weather, time]));
    expect(again.message.toolCalls?.map((c) => c.id)).toEqual(['test-call-2', 'test-call-3']);
  });

  test('a new user message starts a new round of tool calls', async () => {
    const model = new TestModel();
    const first = ask([time]);
    const turn = await model.generate(first);
    const done = answer(first, turn.message, { get_time: 'noon' });
    const followUp = {
      ...done,
      messages: [
        ...done.messages,
        { role: 'assistant' as const, content: 'ok' },
        { role: 'user' as const, content: 'again' },
      ],
    };

    const response = await model.generate(followUp);

    expect(response.message.toolCalls?.map((c) => c.name)).toEqual(['get_time']);
  });

  test('with an output schema the final answer is JSON of a schema-valid value', async () => {
    const model = new TestModel();
    const outputSchema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        celsius: { type: 'integer', minimum: -50, maximum: 60 },
      },
      required: ['city', 'celsius'],
    };

    const response = await model.generate(ask([], { outputSchema }));

    expect(JSON.parse(response.message.content ?? '')).toEqual({ city: 'a', celsius: -50 });
    expect(response.message.toolCalls).toBeUndefined();
  });

  test('with an output tool, tools run first and the output tool is called last', async () => {
    const model = new TestModel();
    const first = ask([weather, record]);

    const turn = await model.generate(first);
    expect(turn.message.toolCalls?.map((c) => c.name)).toEqual(['get_weather']);

    const final = await model.generate(answer(first, turn.message, { get_weather: 'sunny' }));
    expect(final.message.toolCalls).toEqual([
      { id: 'test-call-2', name: 'record_weather', args: '{"city":"a","celsius":-50}' },
    ]);
    expect(final.message.content).toBeUndefined();
  });

  test('an output tool alone is called on the first turn', async () => {
    const response = await new TestModel().generate(ask([record]));
    expect(response.message.toolCalls?.map((c) => c.name)).toEqual(['record_weather']);
  });

  test('callTools restricts which tools are called', async () => {
    const only = await new TestModel({ callTools: ['get_time', 'not_advertised'] }).generate(
      ask([weather, time]),
    );
    expect(only.message.toolCalls?.map((c) => c.name)).toEqual(['get_time']);

    const none = await new TestModel({ callTools: 'none' }).generate(ask([weather, time]));
    expect(none.message).toEqual({ role: 'assistant', content: 'success (no tool calls)' });

    const noneWithOutput = await new TestModel({ callTools: 'none' }).generate(
      ask([weather, record]),
    );
    expect(noneWithOutput.message.toolCalls?.map((c) => c.name)).toEqual(['record_weather']);
  });

  test('the sample option can leave optional arguments out', async () => {
    const response = await new TestModel({ sample: { includeOptional: false } }).generate(
      ask([weather]),
    );
    expect(JSON.parse(response.message.toolCalls?.[0]?.args ?? '')).toEqual({
      city: 'aa',
      days: 1,
    });
  });

  test('usage counts words: request messages in, response out', async () => {
    const req: ModelRequest = {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one two  three' },
        { role: 'assistant', toolCalls: [{ id: 'c', name: 't', args: '{"a": 1}' }] },
        { role: 'tool', content: 'done', toolCallId: 'c', toolName: 't' },
      ],
      tools: [],
    };
    const response = await new TestModel({ text: 'four five six seven' }).generate(req);
    expect(response.usage).toEqual({ inputTokens: 8, outputTokens: 4 });
  });

  test('stream replays content in word chunks and each call with its whole arguments', async () => {
    const textDeltas: Delta[] = [];
    const text = await new TestModel({ text: 'It is  sunny today' }).stream(ask([]), (d) => {
      textDeltas.push(d);
    });
    expect(textDeltas).toEqual([
      { content: 'It' },
      { content: ' is' },
      { content: '  sunny' },
      { content: ' today' },
    ]);
    expect(text.message.content).toBe('It is  sunny today');

    const callDeltas: Delta[] = [];
    const calls = await new TestModel().stream(ask([weather, time]), (d) => {
      callDeltas.push(d);
    });
    expect(callDeltas).toEqual([
      {
        toolCalls: [
          {
            index: 0,
            id: 'test-call-1',
            name: 'get_weather',
            argsFragment: calls.message.toolCalls?.[0]?.args,
          },
        ],
      },
      { toolCalls: [{ index: 1, id: 'test-call-2', name: 'get_time', argsFragment: '{}' }] },
    ]);
  });

  test('a stream handler error is rethrown as-is', async () => {
    const failure = new Error('stop');
    await expect(
      new TestModel().stream(ask([]), () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });

  test('an unsupported tool schema fails the call naming the tool', async () => {
    const bad: ToolSpec = {
      name: 'odd',
      description: '',
      schema: { type: 'object', properties: { x: { not: {} } }, required: ['x'] },
    };
    const failure: unknown = await new TestModel().generate(ask([bad])).catch((e: unknown) => e);
    expect((failure as Error).message).toContain('tool "odd"');
    expect((failure as Error).message).toContain('#/properties/x');
    expect(SchemaSampleError.is((failure as Error).cause)).toBe(true);
  });

  test('records request snapshots and honours an aborted signal', async () => {
    const model = new TestModel({ name: 'test:offline' });
    const req = ask([time]);
    await model.generate(req);
    req.messages[0]!.content = 'changed';

    expect(model.lastRequest?.messages[0]?.content).toBe('What is the weather in Lagos?');
    expect(model.name).toBe('test:offline');
    await expect(model.generate(ask([]), { signal: AbortSignal.abort() })).rejects.toThrow(
      CancelledError,
    );
    expect(model.calls).toBe(1);
  });

  test('is deterministic', async () => {
    const a = await new TestModel().generate(ask([weather, time, record]));
    const b = await new TestModel().generate(ask([weather, time, record]));
    expect(a).toEqual(b);
  });
});

describe('wordChunks', () => {
  test('chunks concatenate to the text and hold one word each', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', 'é') }), (text) => {
        const chunks = wordChunks(text);
        expect(chunks.join('')).toBe(text);
        const words = text.split(/\s+/).filter((w) => w !== '');
        if (words.length > 0) {
          expect(chunks.map((c) => c.trim())).toEqual(words);
        } else {
          expect(chunks).toEqual(text === '' ? [] : [text]);
        }
      }),
    );
  });
});
