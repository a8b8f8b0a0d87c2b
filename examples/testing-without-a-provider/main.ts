/**
 * Testing without a provider: the same agent — instructions, typed dependencies, two tools and
 * decoding — runs offline, first on `TestModel` (no script at all), then on `ScriptedModel`
 * (a conversation you write down). Nothing here needs a network or a key.
 */
import { Agent, ModelRetry, defineTool, type Message, type Model } from 'golem';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What every tool of this agent receives through `ctx.deps`: here, a weather service. */
interface WeatherDeps {
  weather: { celsius(city: string): number | undefined };
}

const getWeather = defineTool<WeatherDeps, { city: string }>({
  name: 'get_weather',
  description: 'Current temperature of a city, in °C.',
  schema: {
    type: 'object',
    // `examples` documents the argument for the model, and TestModel samples its first entry.
    properties: { city: { type: 'string', description: 'City name', examples: ['Lagos'] } },
    required: ['city'],
    additionalProperties: false,
  },
  // Arguments come from the model: check them before use. ModelRetry asks the model to fix them.
  parse: (args) => {
    if (!isRecord(args) || typeof args.city !== 'string')
      throw new ModelRetry('city must be a string');
    return { city: args.city };
  },
  execute: ({ city }, ctx) => {
    const celsius = ctx.deps.weather.celsius(city);
    return celsius === undefined ? `no reading for ${city}` : `${city}: ${celsius}°C`;
  },
});

type Unit = 'fahrenheit' | 'kelvin';

const convertTemperature = defineTool<WeatherDeps, { celsius: number; to: Unit }>({
  name: 'convert_temperature',
  description: 'Convert a temperature in °C to °F or K.',
  schema: {
    type: 'object',
    properties: {
      celsius: { type: 'number', examples: [31] },
      to: { type: 'string', enum: ['fahrenheit', 'kelvin'] },
    },
    required: ['celsius', 'to'],
    additionalProperties: false,
  },
  parse: (args) => {
    if (!isRecord(args) || typeof args.celsius !== 'number')
      throw new ModelRetry('celsius must be a number');
    if (args.to !== 'fahrenheit' && args.to !== 'kelvin')
      throw new ModelRetry('to must be "fahrenheit" or "kelvin"');
    return { celsius: args.celsius, to: args.to };
  },
  execute: ({ celsius, to }) =>
    to === 'fahrenheit'
      ? `${celsius}°C = ${(celsius * 1.8 + 32).toFixed(1)}°F`
      : `${celsius}°C = ${(celsius + 273.15).toFixed(2)} K`,
});

/** The agent under test; only the model changes between production and tests. */
function weatherAgent(model: Model): Agent<WeatherDeps> {
  return new Agent<WeatherDeps>({
    model,
    instructions: 'You are a weather assistant. Use the tools; answer in one sentence.',
    tools: [getWeather, convertTemperature],
  });
}

/** A fake weather service: tests pass fakes through deps instead of patching modules. */
const readings: Record<string, number> = { Lagos: 31, Oslo: 4 };
const deps: WeatherDeps = { weather: { celsius: (city) => readings[city] } };

/** One line per message: the role, then its text or its tool calls. */
function describeMessage(message: Message): string {
  if (message.role === 'tool')
    return `tool ${message.toolName ?? ''} [${message.toolCallId ?? ''}]: ${message.content ?? ''}`;
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.args}) [${call.id}]`);
  if (calls.length > 0) return `${message.role} calls ${calls.join(', ')}`;
  return `${message.role}: ${message.content ?? ''}`;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // 1. TestModel needs no script: its first turn calls every advertised tool once with arguments
  //    generated from the tool's schema; its next turn answers with each tool's result as JSON.
  const testModel = new TestModel();
  const result = await weatherAgent(testModel).run("What's the weather in Lagos, in Fahrenheit?", {
    deps,
  });
  log('TestModel (no script):');
  log(`output: ${result.output}`);
  for (const message of result.messages) log(`  ${describeMessage(message)}`);
  // TestModel estimates usage deterministically (one token per word), so usage can be asserted.
  log(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
  );

  // 2. ScriptedModel plays the responses you queue, in order, and records every request it got.
  const scripted = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'get_weather', args: { city: 'Oslo' } }]),
    toolCallResponse([
      { id: 'call-2', name: 'convert_temperature', args: { celsius: 4, to: 'kelvin' } },
    ]),
    textResponse('It is 4°C (277.15 K) in Oslo.'),
  ]);
  const scriptedResult = await weatherAgent(scripted).run('How cold is Oslo, in kelvin?', { deps });
  log('ScriptedModel (a written-down conversation):');
  log(`output: ${scriptedResult.output}`);
  log(`requests recorded: ${scripted.requests.length}`);
  const lastRequest = scripted.lastRequest;
  if (lastRequest !== undefined) {
    log(`tools advertised: ${lastRequest.tools.map((tool) => tool.name).join(', ')}`);
    log(
      `the last request ended with: ${describeMessage(lastRequest.messages[lastRequest.messages.length - 1] ?? { role: 'user' })}`,
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
