/**
 * Go `ExampleWithOutputTool`: tool-mode structured output. The schema becomes the parameters of a
 * synthesized output tool, the run ends on the model's first call to it, and the call's arguments
 * reach the decoder as the final response content.
 */
import { Agent, ModelRetry, decodeJSON, type Model } from 'golem';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** reportingModel calls the output tool with its final arguments. */
const reportingModel: Model = {
  async generate() {
    return {
      message: {
        role: 'assistant',
        toolCalls: [{ id: 'out-1', name: 'record_weather', args: '{"city":"Lagos","celsius":31}' }],
      },
      usage: { inputTokens: 20, outputTokens: 6 },
    };
  },
};

interface Weather {
  city: string;
  celsius: number;
}

function toWeather(value: unknown): Weather {
  if (!isRecord(value) || typeof value.city !== 'string' || !Number.isInteger(value.celsius)) {
    throw new ModelRetry('expected {"city": string, "celsius": integer}');
  }
  return { city: value.city, celsius: value.celsius as number };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent<undefined, Weather>({
    model: reportingModel,
    output: decodeJSON(toWeather),
    outputTool: {
      name: 'record_weather',
      description: 'Record the final weather report.',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
        required: ['city', 'celsius'],
        additionalProperties: false,
      },
    },
  });

  const result = await agent.run('forecast for Lagos');

  log(`${result.output.city}: ${result.output.celsius}°C`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
