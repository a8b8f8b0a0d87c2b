/**
 * The agents under evaluation: a weather assistant (`get_weather`) and a table-booking assistant
 * (`check_availability`, `book_table`), each in two prompt versions — `baseline` and
 * `candidate`. With OPENAI_API_KEY set they run on OpenAI; without it, on `simulatedModel`: an
 * offline stand-in that answers the way the prompts ask (it is what recorded the checked-in
 * cassettes, so replaying them needs neither).
 */
import {
  Agent,
  defineTool,
  priceTable,
  type JsonSchema,
  type Message,
  type Model,
  type ModelRequest,
} from 'golem';
import { openai } from 'golem/providers/openai';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** Which prompt version an agent runs. */
export type PromptVersion = 'baseline' | 'candidate';

/** What each case of the dataset asks: which assistant, and the user's message. */
export interface AssistantInput {
  readonly agent: 'weather' | 'booking';
  readonly prompt: string;
}

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The weather service behind `get_weather`: a fixed table, so every run sees the same sky. */
const WEATHER: Readonly<Record<string, { sky: string; celsius: number }>> = {
  Lagos: { sky: 'sunny', celsius: 31 },
  Oslo: { sky: 'snowing', celsius: -4 },
  Lima: { sky: 'cloudy', celsius: 19 },
  Cairo: { sky: 'clear', celsius: 35 },
  Hanoi: { sky: 'rainy', celsius: 27 },
  Quito: { sky: 'cloudy', celsius: 14 },
  Perth: { sky: 'sunny', celsius: 29 },
  Reykjavik: { sky: 'windy', celsius: 2 },
  Nairobi: { sky: 'clear', celsius: 23 },
  Montreal: { sky: 'snowing', celsius: -9 },
  Seville: { sky: 'sunny', celsius: 33 },
  Kyoto: { sky: 'rainy', celsius: 16 },
};

/** Tables free at each restaurant (a restaurant missing here is fully booked). */
const FREE_SEATS: Readonly<Record<string, number>> = {
  Mama: 4,
  Nomad: 8,
  Sora: 2,
  Olive: 6,
  Bistro: 0,
};

export const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: (args) => {
    const city = isRecord(args) && typeof args.city === 'string' ? args.city : '';
    const weather = WEATHER[city];
    return weather === undefined ? { error: `no station in ${city}` } : { city, ...weather };
  },
});

const bookingSchema: JsonSchema = {
  type: 'object',
  properties: {
    restaurant: { type: 'string' },
    time: { type: 'string', description: 'HH:MM, today' },
    seats: { type: 'integer' },
  },
  required: ['restaurant', 'time', 'seats'],
  additionalProperties: false,
};

function bookingArgs(args: unknown): { restaurant: string; time: string; seats: number } {
  if (!isRecord(args)) return { restaurant: '', time: '', seats: 0 };
  return {
    restaurant: typeof args.restaurant === 'string' ? args.restaurant : '',
    time: typeof args.time === 'string' ? args.time : '',
    seats: typeof args.seats === 'number' ? args.seats : 0,
  };
}

export const checkAvailability = defineTool({
  name: 'check_availability',
  description: 'Whether a restaurant has a table for that many seats at that time today.',
  schema: bookingSchema,
  execute: (args) => {
    const { restaurant, time, seats } = bookingArgs(args);
    const free = FREE_SEATS[restaurant] ?? 0;
    return { restaurant, time, seats, available: free >= seats };
  },
});

export const bookTable = defineTool({
  name: 'book_table',
  description: 'Book a table; returns the confirmation code.',
  schema: bookingSchema,
  execute: (args) => {
    const { restaurant, time, seats } = bookingArgs(args);
    if ((FREE_SEATS[restaurant] ?? 0) < seats) return { error: `${restaurant} is full at ${time}` };
    return {
      confirmation: `${restaurant.slice(0, 3).toUpperCase()}-${time.replace(':', '')}-${seats}`,
    };
  },
});

const INSTRUCTIONS: Record<'weather' | 'booking', Record<PromptVersion, string>> = {
  weather: {
    baseline:
      'You are a weather assistant. Call get_weather for the city asked about, then answer with the sky and the temperature in °C.',
    candidate:
      'You are a weather assistant. Call get_weather for the city asked about. Be brief: one short sentence.',
  },
  booking: {
    baseline:
      'You book restaurant tables. Call book_table with the restaurant, the time (HH:MM) and the seats, then give the confirmation code.',
    candidate:
      'You book restaurant tables. First call check_availability; only if a table is free call book_table, then give the confirmation code. If it is full, say so.',
  },
};

/** What the model is priced at (USD per million tokens), so reports show cost. */
export const prices = priceTable({
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6 },
  'simulated:gpt-4o-mini': { input: 0.15, output: 0.6 },
});

/** The last user message of a request. */
function lastUser(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'user') return message.content ?? '';
  }
  return '';
}

/** The tool results so far in this run, by tool name (parsed JSON). */
function toolResults(messages: readonly Message[]): Map<string, Record<string, unknown>> {
  const results = new Map<string, Record<string, unknown>>();
  for (const message of messages) {
    if (message.role !== 'tool' || message.toolName === undefined) continue;
    try {
      const parsed: unknown = JSON.parse(message.content ?? '');
      if (isRecord(parsed)) results.set(message.toolName, parsed);
    } catch {
      // not JSON: not a result this stand-in reads
    }
  }
  return results;
}

/** Token counts the stand-in reports: a fixed cost per message and per word answered. */
function usageOf(
  request: ModelRequest,
  answer: string,
): { inputTokens: number; outputTokens: number } {
  const input = request.messages.reduce(
    (n, m) => n + 4 + Math.ceil((m.content ?? '').length / 4),
    0,
  );
  return { inputTokens: input, outputTokens: 3 + answer.split(/\s+/).length };
}

function weatherTurn(request: ModelRequest, brief: boolean) {
  const prompt = lastUser(request.messages);
  const results = toolResults(request.messages);
  const weather = results.get('get_weather');
  if (weather === undefined) {
    const city =
      Object.keys(WEATHER).find((name) => prompt.includes(name)) ?? prompt.split(' ').pop() ?? '';
    return {
      ...toolCallResponse([
        { id: 'call_weather', name: 'get_weather', args: { city: city.replace(/\W+$/, '') } },
      ]),
      usage: usageOf(request, city),
    };
  }
  const answer =
    typeof weather.error === 'string'
      ? `Sorry, I have no weather for that city.`
      : brief
        ? `${String(weather.city)}: ${String(weather.sky)}.`
        : `It is ${String(weather.sky)} in ${String(weather.city)}, ${String(weather.celsius)} °C.`;
  return { ...textResponse(answer), usage: usageOf(request, answer) };
}

function bookingTurn(request: ModelRequest, checkFirst: boolean) {
  const prompt = lastUser(request.messages);
  const results = toolResults(request.messages);
  const restaurant = Object.keys(FREE_SEATS).find((name) => prompt.includes(name)) ?? 'Mama';
  const time = /\b(\d{1,2}:\d{2})\b/.exec(prompt)?.[1]?.padStart(5, '0') ?? '19:00';
  const seats = Number(/\b(\d+)\s+(?:people|seats|guests)\b/.exec(prompt)?.[1] ?? '2');
  const args = { restaurant, time, seats };
  const availability = results.get('check_availability');
  const booking = results.get('book_table');
  if (checkFirst && availability === undefined)
    return {
      ...toolCallResponse([{ id: 'call_check', name: 'check_availability', args }]),
      usage: usageOf(request, 'check'),
    };
  if (checkFirst && availability?.available === false) {
    const answer = `Sorry, ${restaurant} has no table for ${String(seats)} at ${time}.`;
    return { ...textResponse(answer), usage: usageOf(request, answer) };
  }
  if (booking === undefined)
    return {
      ...toolCallResponse([{ id: 'call_book', name: 'book_table', args }]),
      usage: usageOf(request, 'book'),
    };
  const answer =
    typeof booking.confirmation === 'string'
      ? `Booked ${restaurant} at ${time} for ${String(seats)}: confirmation ${booking.confirmation}.`
      : `The booking failed: ${String(booking.error)}.`;
  return { ...textResponse(answer), usage: usageOf(request, answer) };
}

/**
 * The offline stand-in for a provider: it reads the system prompt the way a model would follow
 * it (brief answers, checking availability first) and calls the tools it names.
 */
export function simulatedModel(): Model {
  return new FunctionModel(
    (request) => {
      const system =
        request.messages[0]?.role === 'system' ? (request.messages[0].content ?? '') : '';
      return system.includes('weather')
        ? weatherTurn(request, system.includes('Be brief'))
        : bookingTurn(request, system.includes('check_availability'));
    },
    { name: 'simulated:gpt-4o-mini' },
  );
}

/** The model the agents run on: OpenAI with a key, the simulated stand-in without. */
export function exampleModel(): Model {
  return process.env.OPENAI_API_KEY === undefined
    ? simulatedModel()
    : openai({ model: 'gpt-4o-mini' });
}

/** The two assistants in one prompt version, on `model`. */
export function assistants(version: PromptVersion, model: Model = exampleModel()) {
  return {
    weather: new Agent({
      name: 'weather',
      model,
      prices,
      instructions: INSTRUCTIONS.weather[version],
      tools: [getWeather],
      maxIterations: 4,
    }),
    booking: new Agent({
      name: 'booking',
      model,
      prices,
      instructions: INSTRUCTIONS.booking[version],
      tools: [checkAvailability, bookTable],
      maxIterations: 5,
    }),
  };
}
