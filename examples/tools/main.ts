/**
 * Tools: a typed tool with a run dependency. `defineTool<Deps, Args>` declares what the tool needs
 * from the application (`Deps`, handed to it as `ctx.deps`) and what the model must send (`Args`,
 * checked by `parse` before `execute` runs). The agent is built once; every run passes its own
 * dependency value — no globals, and tests pass fakes the same way.
 */
import { Agent, ModelRetry, defineTool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A forecast backend: an HTTP client in production, a table here. */
interface ForecastService {
  forecast(city: string, day: number): Promise<{ summary: string; celsius: number }>;
}

/** What the application hands to the tools on every run. */
interface WeatherDeps {
  forecasts: ForecastService;
  units: 'metric' | 'imperial';
}

/** What the model must send. */
interface ForecastArgs {
  city: string;
  day: number;
}

/** Model-written arguments are untrusted: check them, and say what to fix when they are wrong. */
function parseForecastArgs(args: unknown): ForecastArgs {
  if (!isRecord(args) || typeof args.city !== 'string' || args.city === '')
    throw new ModelRetry('city must be a non-empty string');
  const day = args.day ?? 0;
  if (typeof day !== 'number' || !Number.isInteger(day) || day < 0 || day > 6)
    throw new ModelRetry('day must be an integer from 0 (today) to 6');
  return { city: args.city, day };
}

const getForecast = defineTool<WeatherDeps, ForecastArgs>({
  name: 'get_forecast',
  description: 'The weather forecast for a city, today (day 0) or up to 6 days ahead.',
  schema: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      day: { type: 'integer', minimum: 0, maximum: 6, description: 'Days from today (default 0)' },
    },
    required: ['city'],
    additionalProperties: false,
  },
  parse: parseForecastArgs,
  // `city` and `day` are typed by ForecastArgs, `ctx.deps` by WeatherDeps.
  execute: async ({ city, day }, ctx) => {
    const { summary, celsius } = await ctx.deps.forecasts.forecast(city, day);
    const temperature =
      ctx.deps.units === 'metric' ? `${celsius} °C` : `${Math.round((celsius * 9) / 5 + 32)} °F`;
    return `${city}, day ${day}: ${summary}, ${temperature}`;
  },
});

/** A fake backend that records what it was asked. */
class TableForecasts implements ForecastService {
  readonly asked: string[] = [];
  constructor(private readonly table: Record<string, { summary: string; celsius: number }>) {}
  forecast(city: string, day: number): Promise<{ summary: string; celsius: number }> {
    this.asked.push(`${city}/${day}`);
    return Promise.resolve(this.table[city] ?? { summary: 'no data', celsius: 0 });
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // Stands in for a provider: asks for the tool, then answers, once per run.
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'get_forecast', args: { city: 'Lagos', day: 1 } }]),
    textResponse('Tomorrow in Lagos: thunderstorms, 27 °C.'),
    toolCallResponse([{ id: 'call-2', name: 'get_forecast', args: { city: 'Oslo' } }]),
    textResponse('Yes: light snow in Oslo today, 28 °F.'),
  ]);
  // Agent<WeatherDeps>: `deps` is required, and typed, on every run.
  const agent = new Agent<WeatherDeps>({
    model,
    instructions: 'Answer weather questions with get_forecast.',
    tools: [getForecast],
  });

  const forecasts = new TableForecasts({
    Lagos: { summary: 'thunderstorms', celsius: 27 },
    Oslo: { summary: 'light snow', celsius: -2 },
  });
  const runs: [string, WeatherDeps][] = [
    ['What is the weather in Lagos tomorrow?', { forecasts, units: 'metric' }],
    ['Is it cold in Oslo today?', { forecasts, units: 'imperial' }],
  ];
  for (const [prompt, deps] of runs) {
    const result = await agent.run(prompt, { deps });
    log(`> ${prompt}   (units: ${deps.units})`);
    const calls = result.messages.flatMap((m) => m.toolCalls ?? []);
    for (const message of result.messages.filter((m) => m.role === 'tool')) {
      const call = calls.find((c) => c.id === message.toolCallId);
      log(`  ${message.toolName ?? ''} ${call?.args ?? ''} -> ${message.content ?? ''}`);
    }
    log(`< ${result.output}`);
  }
  log(`forecast service asked for: ${forecasts.asked.join(', ')}`);
  const advertised = model.requests[0]?.tools.map((t) => t.name).join(', ') ?? '';
  log(`tools the model was offered: ${advertised}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
