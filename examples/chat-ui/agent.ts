/**
 * The agent behind the chat page. Without a provider key it runs offline on a scripted streaming
 * model: it streams a sentence, calls `get_weather`, then calls `book_table` — a tool that needs a
 * human's approval, so the run pauses — and answers once the decision comes back. With
 * OPENAI_API_KEY set, the same tools run against OpenAI.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, defineTool, ModelRetry, type Message, type Model } from 'golem';
import { openai } from 'golem/providers/openai';
import { memoryStore } from 'golem/stores/memory';
import { StreamFunctionModel, textResponse, toolCallResponse, type Emit } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Booking {
  restaurant: string;
  time: string;
  seats: number;
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) =>
    isRecord(args) && typeof args.city === 'string'
      ? { city: args.city, sky: 'sunny', celsius: 24 }
      : { error: 'unknown city' },
});

function parseBooking(args: unknown): Booking {
  if (
    !isRecord(args) ||
    typeof args.restaurant !== 'string' ||
    typeof args.time !== 'string' ||
    typeof args.seats !== 'number'
  ) {
    throw new ModelRetry('send {"restaurant": string, "time": "HH:MM", "seats": number}');
  }
  return { restaurant: args.restaurant, time: args.time, seats: args.seats };
}

const bookTable = defineTool<unknown, Booking>({
  name: 'book_table',
  description: 'Book a restaurant table. A human approves every booking.',
  schema: {
    type: 'object',
    properties: {
      restaurant: { type: 'string' },
      time: { type: 'string', description: 'HH:MM, today' },
      seats: { type: 'number' },
    },
    required: ['restaurant', 'time', 'seats'],
  },
  parse: parseBooking,
  // Every call pauses the run until someone decides (deferredTools on the agent).
  approval: true,
  execute: ({ restaurant, time, seats }) => ({
    confirmation: `${restaurant.slice(0, 2).toUpperCase()}-${time.replace(':', '')}`,
    restaurant,
    time,
    seats,
  }),
});

/** Options of the offline model. */
export interface ScriptedChatOptions {
  /**
   * Pause before each streamed word and argument fragment, so the page visibly streams; default
   * 30 ms, 0 for none.
   */
  wordDelayMs?: number;
}

/** The messages of the current exchange: everything after the last user message. */
function sinceLastUser(messages: readonly Message[]): Message[] {
  const last = messages.map((message) => message.role).lastIndexOf('user');
  return messages.slice(last + 1);
}

/**
 * The offline model: a deterministic script that streams like a provider does (text word by word,
 * tool-call arguments in fragments) and picks its turn from the tool results it has seen.
 */
export function scriptedChatModel(options: ScriptedChatOptions = {}): StreamFunctionModel {
  const wordDelayMs = options.wordDelayMs ?? 30;
  return new StreamFunctionModel(
    async (request, emit, { signal }) => {
      const pause = async (): Promise<void> => {
        if (wordDelayMs > 0) await delay(wordDelayMs, undefined, { signal });
      };
      const say = async (text: string): Promise<void> => {
        for (const word of text.split(/(?<= )/)) {
          await pause();
          await emit({ content: word });
        }
      };
      const call = async (id: string, name: string, args: string): Promise<void> => {
        await emitCall(emit, pause, id, name, args);
      };
      const results = sinceLastUser(request.messages).filter((m) => m.role === 'tool');
      const last = results.at(-1);
      if (last === undefined) {
        const text = 'Let me check the weather in Lagos first.';
        await say(text);
        await call('call-weather', 'get_weather', '{"city":"Lagos"}');
        return toolCallResponse(
          [{ id: 'call-weather', name: 'get_weather', args: '{"city":"Lagos"}' }],
          undefined,
          text,
        );
      }
      if (last.toolCallId === 'call-weather') {
        const text =
          'Sunny and 24°C, a good evening for the terrace. I would like to book a table.';
        const args = '{"restaurant":"Terra Kitchen","time":"19:30","seats":2}';
        await say(text);
        await call('call-booking', 'book_table', args);
        return toolCallResponse(
          [{ id: 'call-booking', name: 'book_table', args }],
          undefined,
          text,
        );
      }
      const booked = (last.content ?? '').includes('confirmation');
      const answer = booked
        ? 'Booked: a table for 2 at Terra Kitchen at 19:30 (confirmation TE-1930). Enjoy the sun!'
        : 'Understood, I did not book anything. The weather in Lagos is sunny and 24°C.';
      await say(answer);
      return textResponse(answer);
    },
    { name: 'scripted-chat' },
  );
}

/** Streams one tool call the way a provider does: its id and name, then its arguments in pieces. */
async function emitCall(
  emit: Emit,
  pause: () => Promise<void>,
  id: string,
  name: string,
  args: string,
): Promise<void> {
  await emit({ toolCalls: [{ index: 0, id, name }] });
  const middle = Math.ceil(args.length / 2);
  for (const piece of [args.slice(0, middle), args.slice(middle)]) {
    await pause();
    await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
  }
}

/**
 * The chat agent: OpenAI when `env.OPENAI_API_KEY` is set, the offline script otherwise. Its runs
 * are checkpointed in a run store (in memory here; PostgreSQL or SQLite in production), so an
 * approval resumes the paused run by its id: the server trusts its own record of the pending
 * call, not the copy the browser sends back.
 */
export function chatAgent(
  env: NodeJS.ProcessEnv = process.env,
  options: ScriptedChatOptions = {},
): Agent<unknown, string, true> {
  const apiKey = env.OPENAI_API_KEY ?? '';
  const model: Model =
    apiKey === ''
      ? scriptedChatModel(options)
      : openai({ model: env.OPENAI_MODEL ?? 'gpt-4o-mini', apiKey });
  return new Agent<unknown, string, true>({
    model,
    instructions:
      'You help plan an evening out. Check the weather with get_weather before suggesting ' +
      'anything, and book with book_table when the user wants a table. Answer briefly.',
    tools: [getWeather, bookTable],
    deferredTools: true,
    store: memoryStore(),
  });
}
