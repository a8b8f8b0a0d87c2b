import { Agent, defineTool, ModelRetry, type Model } from 'golem';

/** What the model must send to the forecast tool. */
export interface ForecastArgs {
  city: string;
}

/** A stand-in for a weather API client (a real one would call a service). */
export function celsius(city: string): number {
  return city === 'Lagos' ? 31 : 20;
}

/** Model-written arguments are untrusted: check them, and say what to fix when they are wrong. */
function parseForecastArgs(args: unknown): ForecastArgs {
  const city =
    typeof args === 'object' && args !== null ? (args as { city?: unknown }).city : undefined;
  if (typeof city !== 'string' || city.trim() === '')
    throw new ModelRetry('city must be a non-empty string');
  return { city };
}

export const forecast = defineTool<unknown, ForecastArgs>({
  name: 'forecast',
  description: 'Temperature of a city, in °C',
  schema: {
    type: 'object',
    // `examples` guides the model (and TestModel's sample).
    properties: { city: { type: 'string', description: 'City name', examples: ['Lagos'] } },
    required: ['city'],
    additionalProperties: false,
  },
  parse: parseForecastArgs,
  execute: ({ city }) => `${city}: ${celsius(city)}°C`,
});

/** The agent: a model, instructions and its tools. */
export function createAgent(model: Model) {
  return new Agent({
    model,
    instructions: 'You are a concise weather assistant. Use the forecast tool.',
    tools: [forecast],
  });
}
