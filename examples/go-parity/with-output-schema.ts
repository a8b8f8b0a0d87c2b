/**
 * Go `ExampleWithOutputSchema`: a declared output schema (sent to the model by adapters that
 * support structured output) paired with the JSON decoder that validates the response content.
 */
import { Agent, ModelRetry, decodeJSON, type Model } from 'golem';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** forecastModel answers with JSON shaped by the output schema. */
const forecastModel: Model = {
  async generate() {
    return {
      message: { role: 'assistant', content: '{"city":"Lagos","celsius":31}' },
      usage: { inputTokens: 20, outputTokens: 6 },
    };
  },
};

interface Weather {
  city: string;
  celsius: number;
}

/** The validator turns the parsed JSON into a Weather, or rejects it as correctable. */
function toWeather(value: unknown): Weather {
  if (!isRecord(value) || typeof value.city !== 'string' || !Number.isInteger(value.celsius)) {
    throw new ModelRetry('expected {"city": string, "celsius": integer}');
  }
  return { city: value.city, celsius: value.celsius as number };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent<undefined, Weather>({
    model: forecastModel,
    output: decodeJSON(toWeather),
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
      required: ['city', 'celsius'],
      additionalProperties: false,
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
