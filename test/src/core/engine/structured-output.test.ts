import {
  Agent,
  ConfigError,
  ModelRetry,
  decodeJSON,
  defineTool,
  type Delta,
  type ModelResponse,
  type RunEvent,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { isRecord } from '../../../../src/core/kit/guards';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

interface Weather {
  city: string;
}

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

const OUTPUT_TOOL = {
  name: 'record_weather',
  description: 'Record the weather report',
  schema: WEATHER_SCHEMA,
};

/** Accepts `{city: string}`; rejects correctably otherwise. */
function weather(value: unknown): Weather {
  if (isRecord(value) && typeof value.city === 'string') return { city: value.city };
  throw new ModelRetry('city must be a string');
}

/** Accepts only Lagos, rejecting anything else with a reason naming the city. */
function onlyLagos(value: unknown): Weather {
  const w = weather(value);
  if (w.city !== 'Lagos') throw new ModelRetry(`city must be Lagos, got ${w.city}`);
  return w;
}

function outputCall(
  id: string,
  city: string,
  name = 'record_weather',
): { id: string; name: string; args: string } {
  return { id, name, args: JSON.stringify({ city }) };
}

function recorded(id: string) {
  return { role: 'tool', content: 'Result recorded.', toolCallId: id, toolName: 'record_weather' };
}

describe('§8 structured output: output tool (tool mode)', () => {
  test('OT-1 an output call is decoded, the only spec is the output spec and evidence ends with "Result recorded."', async () => {
    const model = new ScriptedModel([
      toolCallResponse([outputCall('out-1', 'Lagos')], { inputTokens: 3, outputTokens: 2 }),
    ]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(model.requests[0]?.tools).toEqual([{ ...OUTPUT_TOOL, output: true }]);
    expect(model.requests[0]?.outputSchema).toBeUndefined();
    expect(result.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        toolCalls: [{ id: 'out-1', name: 'record_weather', args: '{"city":"Lagos"}' }],
      },
      recorded('out-1'),
    ]);
    expect(result.requests).toBe(1);
    expect(result.toolCalls).toBe(0);
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 2 });
  });

  test('OT-1 an output tool schema given as JSON text is advertised as the parsed object with output: true', async () => {
    const model = new ScriptedModel([toolCallResponse([outputCall('out-1', 'Lagos')])]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: { ...OUTPUT_TOOL, schema: JSON.stringify(WEATHER_SCHEMA) },
      output: decodeJSON(weather),
    });

    await agent.run('Weather?');

    expect(model.requests[0]?.tools).toEqual([
      {
        name: 'record_weather',
        description: 'Record the weather report',
        schema: WEATHER_SCHEMA,
        output: true,
      },
    ]);
  });

  test('OT-1 the decoder sees the output call raw args as content while evidence keeps the original assistant message', async () => {
    const raw = ' { "city" : "Lagos" } ';
    const model = new ScriptedModel([
      toolCallResponse(
        [{ id: 'out-1', name: 'record_weather', args: raw }],
        { inputTokens: 1, outputTokens: 1 },
        'Recording now.',
      ),
    ]);
    const seen: ModelResponse[] = [];
    const agent = new Agent({
      model,
      outputTool: OUTPUT_TOOL,
      output: (response) => {
        seen.push(response);
        return response.message.content ?? '';
      },
    });

    const result = await agent.run('Weather?');

    expect(result.output).toBe(raw);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.message.content).toBe(raw);
    expect(seen[0]?.message.toolCalls).toEqual([
      { id: 'out-1', name: 'record_weather', args: raw },
    ]);
    expect(seen[0]?.usage).toEqual({ inputTokens: 1, outputTokens: 1 });
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      content: 'Recording now.',
      toolCalls: [{ id: 'out-1', name: 'record_weather', args: raw }],
    });
  });

  test('OT-1 the output spec is appended after the advertised tools, also when toolChoice restricts them', async () => {
    const tool = (name: string) =>
      defineTool({
        name,
        description: `tool ${name}`,
        schema: { type: 'object' },
        execute: () => name,
      });
    const model = new ScriptedModel([toolCallResponse([outputCall('out-1', 'Lagos')])]);
    const agent = new Agent<undefined, Weather>({
      model,
      tools: [tool('a'), tool('b')],
      toolChoice: 'b',
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
    });

    await agent.run('Weather?');

    expect(model.requests[0]?.tools).toEqual([
      { name: 'b', description: 'tool b', schema: { type: 'object' } },
      { ...OUTPUT_TOOL, output: true },
    ]);
  });

  test('OT-2 batch [roll-1, out-1]: roll is not executed, gets the interrupted result, then "Result recorded." for out-1', async () => {
    const execute = jest.fn(() => 'rolled 4');
    const roll = defineTool({
      name: 'roll',
      description: 'Roll a die',
      schema: { type: 'object' },
      execute,
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'roll-1', name: 'roll', args: '{}' }, outputCall('out-1', 'Lagos')]),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent<undefined, Weather>({
      model,
      tools: [roll],
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
      onEvent: (e) => events.push(e),
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(execute).not.toHaveBeenCalled();
    expect(INTERRUPTED_RESULT).toBe(
      'Tool call was interrupted before execution; no result was produced. Call the tool again if you need its result.',
    );
    expect(result.messages).toHaveLength(4);
    expect(result.messages[2]).toEqual({
      role: 'tool',
      content: INTERRUPTED_RESULT,
      toolCallId: 'roll-1',
      toolName: 'roll',
    });
    expect(result.messages[3]).toEqual(recorded('out-1'));
    expect(result.toolCalls).toBe(0);
    expect(events.map((e) => e.kind)).toEqual(['model_start', 'model_end']);
  });

  test('OT-2 a second call to the output tool is interrupted; the first one in emission order is the output call', async () => {
    const model = new ScriptedModel([
      toolCallResponse([outputCall('out-1', 'Lagos'), outputCall('out-2', 'Paris')]),
    ]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(result.messages.slice(2)).toEqual([
      {
        role: 'tool',
        content: INTERRUPTED_RESULT,
        toolCallId: 'out-2',
        toolName: 'record_weather',
      },
      recorded('out-1'),
    ]);
  });

  test('OT-2 batch [unknown, output] ends the run normally; the unknown call receives an interrupted result', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'x-1', name: 'nonexistent', args: '{}' },
        outputCall('out-1', 'Lagos'),
      ]),
    ]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(result.messages.slice(2)).toEqual([
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'x-1', toolName: 'nonexistent' },
      recorded('out-1'),
    ]);
    expect(model.calls).toBe(1);
  });

  test('OT-3 a rejected output call is fed back as a tool message bound to the output call, then accepted', async () => {
    const model = new ScriptedModel([
      toolCallResponse([outputCall('out-1', 'Paris')]),
      toolCallResponse([outputCall('out-2', 'Lagos')]),
    ]);
    const decode = jest.fn(decodeJSON(onlyLagos));
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: OUTPUT_TOOL,
      output: decode,
      outputRetries: 1,
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(decode).toHaveBeenCalledTimes(2);
    expect(model.calls).toBe(2);
    const rejection = {
      role: 'tool',
      content:
        'Your result was rejected: city must be Lagos, got Paris. Correct the arguments and call record_weather again.',
      toolCallId: 'out-1',
      toolName: 'record_weather',
    };
    expect(model.requests[1]?.messages).toHaveLength(3);
    expect(model.requests[1]?.messages[2]).toEqual(rejection);
    expect(model.requests[1]?.tools).toEqual([{ ...OUTPUT_TOOL, output: true }]);
    expect(result.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(result.messages[2]).toEqual(rejection);
    expect(result.messages[4]).toEqual(recorded('out-2'));
  });

  test('OT-3 the tool-mode rejection is appended after the interrupted results of the rejected batch', async () => {
    const roll = defineTool({
      name: 'roll',
      description: 'Roll',
      schema: { type: 'object' },
      execute: () => 'rolled',
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'roll-1', name: 'roll', args: '{}' }, outputCall('out-1', 'Paris')]),
      toolCallResponse([outputCall('out-2', 'Lagos')]),
    ]);
    const agent = new Agent<undefined, Weather>({
      model,
      tools: [roll],
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(onlyLagos),
      outputRetries: 1,
    });

    await agent.run('Weather?');

    expect(model.requests[1]?.messages.slice(2)).toEqual([
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'roll-1', toolName: 'roll' },
      {
        role: 'tool',
        content:
          'Your result was rejected: city must be Lagos, got Paris. Correct the arguments and call record_weather again.',
        toolCallId: 'out-1',
        toolName: 'record_weather',
      },
    ]);
  });

  test('OT-4 a streaming run with the output tool yields one call fragment and ends with "Result recorded."', async () => {
    const model = new ScriptedModel([toolCallResponse([outputCall('out-1', 'Lagos')])]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputTool: OUTPUT_TOOL,
      output: decodeJSON(weather),
    });

    const stream = agent.runStream('Weather?');
    const deltas: Delta[] = [];
    for await (const delta of stream) deltas.push(delta);
    const result = await stream.result;

    expect(deltas).toEqual([{ toolCalls: [{ index: 0, id: 'out-1', name: 'record_weather' }] }]);
    expect(result.output).toEqual({ city: 'Lagos' });
    expect(result.messages.at(-1)).toEqual(recorded('out-1'));
    expect(result.messages).toHaveLength(3);
  });

  test('OT-6 in tool mode a plain text answer is decoded as text and gets no close message', async () => {
    const model = new ScriptedModel([textResponse('It is sunny in Lagos.')]);
    const agent = new Agent({ model, outputTool: OUTPUT_TOOL });

    const result = await agent.run('Weather?');

    expect(result.output).toBe('It is sunny in Lagos.');
    expect(result.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'It is sunny in Lagos.' },
    ]);
  });
});

describe('§8 structured output: output schema (native mode)', () => {
  test('OT-5 with a correction round both requests carry the identical schema and no output tool', async () => {
    const model = new ScriptedModel([
      textResponse('{"city":"Paris"}'),
      textResponse('{"city":"Lagos"}'),
    ]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputSchema: WEATHER_SCHEMA,
      output: decodeJSON(onlyLagos),
      outputRetries: 1,
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ city: 'Lagos' });
    expect(model.calls).toBe(2);
    expect(model.requests[0]?.outputSchema).toEqual(WEATHER_SCHEMA);
    expect(model.requests[1]?.outputSchema).toEqual(WEATHER_SCHEMA);
    expect(JSON.stringify(model.requests[1]?.outputSchema)).toBe(
      JSON.stringify(model.requests[0]?.outputSchema),
    );
    expect(model.requests[0]?.tools).toEqual([]);
    expect(model.requests[1]?.tools).toEqual([]);
  });

  test('OT-5 an output schema given as JSON text travels as the parsed schema object', async () => {
    const model = new ScriptedModel([textResponse('{"city":"Lagos"}')]);
    const agent = new Agent<undefined, Weather>({
      model,
      outputSchema: JSON.stringify(WEATHER_SCHEMA),
      output: decodeJSON(weather),
    });

    await agent.run('Weather?');

    expect(model.requests[0]?.outputSchema).toEqual(WEATHER_SCHEMA);
  });

  test('OT-5 the core never validates against the output schema: the decoder is the only boundary', async () => {
    const model = new ScriptedModel([textResponse('{"town":"Ikeja"}')]);
    const agent = new Agent<undefined, unknown>({
      model,
      outputSchema: WEATHER_SCHEMA,
      output: decodeJSON(),
    });

    const result = await agent.run('Weather?');

    expect(result.output).toEqual({ town: 'Ikeja' });
  });

  test('OT-5 outputSchema and outputTool together are a configuration error', () => {
    const model = new ScriptedModel([]);
    expect(
      () => new Agent({ model, outputSchema: WEATHER_SCHEMA, outputTool: OUTPUT_TOOL }),
    ).toThrow(ConfigError);
  });
});
