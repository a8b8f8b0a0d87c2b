import { IsInt, IsString } from 'class-validator';
import type { ModelResponse } from 'golem';
import { Agent, OUTPUT_TYPE, Output, agentFromClass } from 'golem/decorators';
import { StreamFunctionModel, textResponse } from 'golem/testing';

class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

@Agent()
@Output(Forecast)
class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
}

@Agent()
@Output(Forecast, { mode: 'tool', name: 'record_weather' })
class ToolWeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
}

const ANSWER = '{"city": "Lagos", "celsius": 31}';

describe('decorated @Output agents stream partial outputs', () => {
  test('native: partials are plain objects, only the final value is a validated instance', async () => {
    const model = new StreamFunctionModel(async (_r, emit): Promise<ModelResponse> => {
      for (const piece of ['{"city": "La', 'gos", "cel', 'sius": 31', '}'])
        await emit({ content: piece });
      return textResponse(ANSWER);
    });
    const stream = agentFromClass(new WeatherAgent(), { model }).runStream('Weather?');
    const seen: unknown[] = [];
    for await (const partial of stream.partialOutput) seen.push(partial);

    const final = seen.at(-1);
    expect(final).toBeInstanceOf(Forecast);
    expect(final).toBe((await stream.result).output);
    expect(seen.slice(0, -1)).toEqual([
      { city: 'La' },
      { city: 'Lagos' },
      { city: 'Lagos', celsius: 31 },
    ]);
    for (const partial of seen.slice(0, -1)) expect(partial).not.toBeInstanceOf(Forecast);
  });

  test('tool mode: partials come from the output tool the class names', async () => {
    const model = new StreamFunctionModel(async (_r, emit): Promise<ModelResponse> => {
      await emit({
        toolCalls: [{ index: 0, id: 'c', name: 'record_weather', argsFragment: '{"city":"Ab' }],
      });
      await emit({ toolCalls: [{ index: 0, argsFragment: 'uja","celsius":29}' }] });
      return {
        message: {
          role: 'assistant',
          toolCalls: [{ id: 'c', name: 'record_weather', args: '{"city":"Abuja","celsius":29}' }],
        },
        usage: { inputTokens: 1, outputTokens: 1 },
      };
    });
    const stream = agentFromClass(new ToolWeatherAgent(), { model }).runStream('Weather?');
    const seen: unknown[] = [];
    for await (const partial of stream.partialOutput) seen.push(partial);

    expect(seen[0]).toEqual({ city: 'Ab' });
    expect(seen.at(-1)).toBeInstanceOf(Forecast);
    expect(seen.at(-1)).toMatchObject({ city: 'Abuja', celsius: 29 });
  });
});
