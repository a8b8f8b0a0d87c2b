/**
 * Self-correction: a tool rejects arguments the model can fix by throwing `ModelRetry`. Within the
 * tool's retry budget the rejection goes back to the model as the call's result, and the model
 * calls again with corrected arguments. Past the budget, the run fails at the `tool` stage.
 */
import { Agent, ModelRetry, RunError, defineTool, type Message, type Model } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Booking {
  date: string;
  guests: number;
}

/** Validates the untrusted arguments; every problem is phrased as an instruction to the model. */
function parseBooking(args: unknown): Booking {
  if (!isRecord(args))
    throw new ModelRetry('send an object {"date": "YYYY-MM-DD", "guests": number}');
  const { date, guests } = args;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    throw new ModelRetry(`date must look like 2025-06-01, got ${JSON.stringify(date)}`);
  }
  if (typeof guests !== 'number' || !Number.isInteger(guests) || guests < 1 || guests > 8) {
    throw new ModelRetry(`guests must be an integer from 1 to 8, got ${JSON.stringify(guests)}`);
  }
  return { date, guests };
}

const bookTable = defineTool({
  name: 'book_table',
  description: 'Book a restaurant table.',
  schema: {
    type: 'object',
    properties: {
      date: { type: 'string', description: 'YYYY-MM-DD' },
      guests: { type: 'integer', minimum: 1, maximum: 8 },
    },
    required: ['date', 'guests'],
  },
  // `parse` runs before `execute`; its ModelRetry is a correctable rejection like one from execute.
  parse: parseBooking,
  // The tool's own budget: two rejections per run may be fed back (overrides `toolRetries`).
  maxRetries: 2,
  execute: ({ date, guests }, ctx) =>
    `booked a table for ${guests} on ${date} (after ${ctx.retry} corrections)`,
});

function restaurantAgent(model: Model): Agent {
  return new Agent({ model, tools: [bookTable] });
}

function describeMessage(message: Message): string {
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.args})`);
  if (calls.length > 0) return `${message.role} calls ${calls.join(', ')}`;
  return `${message.role}: ${message.content ?? ''}`;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The model gets the date format wrong, then the guest count, then gets it right.
  const model = new ScriptedModel([
    toolCallResponse([
      { id: 'call-1', name: 'book_table', args: { date: 'next Friday', guests: 4 } },
    ]),
    toolCallResponse([
      { id: 'call-2', name: 'book_table', args: { date: '2025-06-06', guests: 0 } },
    ]),
    toolCallResponse([
      { id: 'call-3', name: 'book_table', args: { date: '2025-06-06', guests: 4 } },
    ]),
    textResponse('Your table for 4 is booked for Friday, June 6.'),
  ]);
  const result = await restaurantAgent(model).run('Book a table for four next Friday.');
  log(`output: ${result.output}`);
  for (const message of result.messages) log(`  ${describeMessage(message)}`);
  log(`tool executions: ${result.toolCalls} (rejected ones count too)`);

  // A model that keeps sending bad arguments exhausts the budget: the run fails at the tool stage.
  const stubborn = new ScriptedModel(
    [1, 2, 3].map((n) =>
      toolCallResponse([
        { id: `call-${n}`, name: 'book_table', args: { date: 'soon', guests: 2 } },
      ]),
    ),
  );
  try {
    await restaurantAgent(stubborn).run('Book a table soon.');
    throw new Error('expected the correction budget to run out');
  } catch (error) {
    if (!RunError.is(error)) throw error;
    log(`stubborn model: failed at the ${error.stage} stage after ${stubborn.calls} model calls`);
    log(`  ${error.message}`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
