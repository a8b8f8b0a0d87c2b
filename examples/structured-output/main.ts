/**
 * Structured output: `outputSchema` tells the model (through adapters with native structured
 * output) what shape to answer in, and `decodeJSON(validator)` is the boundary that checks it.
 * Invalid JSON or a validator rejection is correctable: with `outputRetries` the model tries again.
 */
import { Agent, ModelRetry, decodeJSON, type JsonSchema } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Forecast {
  city: string;
  celsius: number;
  conditions: string[];
}

const forecastSchema: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    celsius: { type: 'integer' },
    conditions: { type: 'array', items: { type: 'string' } },
  },
  required: ['city', 'celsius', 'conditions'],
  additionalProperties: false,
};

/**
 * The validator receives the parsed, untrusted JSON and returns the typed value. Throwing
 * ModelRetry sends the reason back to the model (any other error is wrapped in one). A schema
 * library's parse function (zod, valibot, ajv…) fits here just as well.
 */
function toForecast(value: unknown): Forecast {
  if (!isRecord(value)) throw new ModelRetry('the answer must be a JSON object');
  const { city, celsius, conditions } = value;
  if (typeof city !== 'string' || city === '')
    throw new ModelRetry('"city" must be a non-empty string');
  if (typeof celsius !== 'number' || !Number.isInteger(celsius))
    throw new ModelRetry('"celsius" must be an integer');
  if (!Array.isArray(conditions) || !conditions.every((c): c is string => typeof c === 'string')) {
    throw new ModelRetry('"conditions" must be an array of strings');
  }
  return { city, celsius, conditions };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The first answer has celsius as a string; the rejection makes the model fix it.
  const model = new ScriptedModel([
    textResponse('{"city":"Lagos","celsius":"31","conditions":["sunny"]}'),
    textResponse('{"city":"Lagos","celsius":31,"conditions":["sunny","humid"]}'),
  ]);
  const agent = new Agent<undefined, Forecast>({
    model,
    outputSchema: forecastSchema,
    output: decodeJSON(toForecast),
    outputRetries: 1,
  });

  const result = await agent.run('Forecast for Lagos as JSON.');

  // The output is typed: no casts, no re-parsing.
  const forecast: Forecast = result.output;
  log(`${forecast.city}: ${forecast.celsius}°C, ${forecast.conditions.join(' and ')}`);
  log(
    `schema sent with every request: ${model.requests.every((request) => request.outputSchema !== undefined)}`,
  );
  // The rejection is part of the evidence, as a user message between the two answers.
  for (const message of result.messages) log(`  ${message.role}: ${message.content ?? ''}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
