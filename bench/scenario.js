'use strict';
/**
 * What every framework runs, and the checks every framework shares.
 *
 * (a) a 3-turn tool loop: the model calls `add` {a:1,b:2}, then `add` {a:3,b:4}, then answers
 *     "done"; every call's arguments are validated before the tool runs.
 * (b) one turn of structured output: the model answers {"city":"Lagos","celsius":31}, which is
 *     parsed and validated into an object.
 *
 * Every fake model is instant (an async function, no timers) and stateless: it picks the turn
 * from the number of tool results already in the request, so concurrent runs never interfere.
 */

const SYSTEM = 'You add numbers with the add tool, then say done.';
const PROMPT_A = 'Add 1+2, then add 3+4.';
const PROMPT_B = 'What is the weather in Lagos? Answer as JSON.';
const ADD_DESCRIPTION = 'Add two numbers';

/** Tool calls per turn of scenario (a); the third turn is the final answer. */
const CALLS = [
  { id: 'call_1', name: 'add', args: '{"a":1,"b":2}' },
  { id: 'call_2', name: 'add', args: '{"a":3,"b":4}' },
];
const FINAL_TEXT = 'done';
const FORECAST_TEXT = '{"city":"Lagos","celsius":31}';

/** JSON Schema of the `add` arguments (what Golem and the baseline advertise). */
const ADD_SCHEMA = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'First addend' },
    b: { type: 'number', description: 'Second addend' },
  },
  required: ['a', 'b'],
  additionalProperties: false,
};

/** JSON Schema of the structured output. */
const FORECAST_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The plain-function check of the `add` arguments, exactly what ADD_SCHEMA says: an object with
 * finite numbers `a` and `b` and nothing else. Used by Golem's `defineTool({ parse })` and by
 * the hand-written baseline.
 */
function parseAddArgs(value) {
  if (!isPlainObject(value)) throw new TypeError('arguments must be an object');
  for (const key in value) {
    if (key !== 'a' && key !== 'b') throw new TypeError(`unexpected argument "${key}"`);
  }
  const { a, b } = value;
  if (typeof a !== 'number' || !Number.isFinite(a)) throw new TypeError('a must be a number');
  if (typeof b !== 'number' || !Number.isFinite(b)) throw new TypeError('b must be a number');
  return { a, b };
}

/** The plain-function check of the structured output, exactly what FORECAST_SCHEMA says. */
function parseForecast(value) {
  if (!isPlainObject(value)) throw new TypeError('output must be an object');
  for (const key in value) {
    if (key !== 'city' && key !== 'celsius') throw new TypeError(`unexpected field "${key}"`);
  }
  const { city, celsius } = value;
  if (typeof city !== 'string') throw new TypeError('city must be a string');
  if (!Number.isInteger(celsius)) throw new TypeError('celsius must be an integer');
  return { city, celsius };
}

/** The tool body every framework runs. */
function add({ a, b }) {
  return String(a + b);
}

/** The zod schema of the `add` arguments every zod column uses (same shape as ADD_SCHEMA). */
function addArgsSchema(z) {
  return z.object({
    a: z.number().describe('First addend'),
    b: z.number().describe('Second addend'),
  });
}

/** The zod schema of the structured output every zod column uses (same shape as FORECAST_SCHEMA). */
function forecastSchema(z) {
  return z.object({ city: z.string(), celsius: z.int() });
}

// ------------------------------------------------------------------ history continuation

const PROMPT_HISTORY = 'Thanks. Anything else?';
const HISTORY_MESSAGES = 200;
const HISTORY_EXCHANGES = 20;

/**
 * The conversation carried into the history scenario: 20 blocks of 10 messages (200 in all), each
 * block a user question, an assistant `add` call, its tool result, the assistant's answer, then
 * three user/assistant text pairs. `shape` builds each message in a framework's own form:
 * `{ user(text), call(id, a, b), result(id, text), assistant(text) }`. Built once per process and
 * passed unchanged to every run (what a chat app holds between turns).
 */
function buildHistory(shape) {
  const out = [];
  for (let i = 0; i < HISTORY_EXCHANGES; i++) {
    const id = `hist_${i}`;
    out.push(shape.user(`Add ${i} and 1, please.`));
    out.push(shape.call(id, i, 1));
    out.push(shape.result(id, String(i + 1)));
    out.push(shape.assistant(`${i} + 1 = ${i + 1}.`));
    for (let j = 0; j < 3; j++) {
      out.push(shape.user(`Question ${i}.${j}: is that right?`));
      out.push(shape.assistant(`Yes, answer ${i}.${j} stands.`));
    }
  }
  if (out.length !== HISTORY_MESSAGES) throw new Error(`history has ${out.length} messages`);
  return out;
}

// ------------------------------------------------------------------------------ streaming

/** Text deltas of the stream-text turn, and the text each carries. */
const STREAM_DELTAS = 2000;
const STREAM_TOKEN = 'tok ';
const STREAM_TEXT = STREAM_TOKEN.repeat(STREAM_DELTAS);
/**
 * The streamed tool call: `add` {a:1,b:2} whose JSON arguments (padded with whitespace to 2,000
 * characters, still valid JSON) arrive one character per delta; then "done" in one delta.
 */
const STREAM_ARGS = `{"a":1,${' '.repeat(STREAM_DELTAS - 13)}"b":2}`;
const STREAM_TOOL_DELTAS = STREAM_ARGS.length + 1;

/** A consumer's sink for streamed fragments: counts what arrives (every column does the same). */
function makeSink() {
  const sink = { received: 0, push: (text) => (sink.received += text.length) };
  return sink;
}

/** Throws unless a stream-text run saw every fragment and produced the whole text. */
function checkStreamText(framework, output, received) {
  if (output !== STREAM_TEXT)
    throw new Error(`${framework} (stream-text): output of ${String(output).length} characters`);
  if (received !== STREAM_TEXT.length)
    throw new Error(`${framework} (stream-text): ${received} characters streamed`);
}

/** Throws unless a stream-tool run streamed the call, ran the tool and answered. */
function checkStreamTool(framework, output, toolResults, received) {
  if (output !== FINAL_TEXT)
    throw new Error(`${framework} (stream-tool): output ${JSON.stringify(output)}`);
  if (JSON.stringify(toolResults) !== '["3"]')
    throw new Error(`${framework} (stream-tool): tool results ${JSON.stringify(toolResults)}`);
  if (received !== STREAM_ARGS.length + FINAL_TEXT.length)
    throw new Error(`${framework} (stream-tool): ${received} characters streamed`);
}

/** Throws unless a run produced what its scenario expects (`method` names the scenario). */
function check(method, framework, r) {
  if (method === 'runA') return checkA(framework, r.output, r.toolResults);
  if (method === 'runB') return checkB(framework, r.output);
  if (method.startsWith('runHistory')) {
    if (r.output !== FINAL_TEXT)
      throw new Error(`${framework} (history): output ${JSON.stringify(r.output)}`);
    return undefined;
  }
  if (method.startsWith('runStreamText')) return checkStreamText(framework, r.output, r.received);
  if (method.startsWith('runStreamTool'))
    return checkStreamTool(framework, r.output, r.toolResults, r.received);
  return undefined;
}

/** Throws unless a scenario (a) run produced the expected transcript. */
function checkA(framework, output, toolResults) {
  if (output !== FINAL_TEXT) throw new Error(`${framework} (a): output ${JSON.stringify(output)}`);
  if (JSON.stringify(toolResults) !== '["3","7"]')
    throw new Error(`${framework} (a): tool results ${JSON.stringify(toolResults)}`);
}

/** Throws unless a scenario (b) run produced the validated object. */
function checkB(framework, output) {
  if (
    !isPlainObject(output) ||
    output.city !== 'Lagos' ||
    output.celsius !== 31 ||
    Object.keys(output).length !== 2
  )
    throw new Error(`${framework} (b): output ${JSON.stringify(output)}`);
}

module.exports = {
  SYSTEM,
  PROMPT_A,
  PROMPT_B,
  ADD_DESCRIPTION,
  CALLS,
  FINAL_TEXT,
  FORECAST_TEXT,
  ADD_SCHEMA,
  FORECAST_SCHEMA,
  parseAddArgs,
  parseForecast,
  add,
  checkA,
  checkB,
  check,
  addArgsSchema,
  forecastSchema,
  PROMPT_HISTORY,
  HISTORY_MESSAGES,
  HISTORY_EXCHANGES,
  buildHistory,
  STREAM_DELTAS,
  STREAM_TOKEN,
  STREAM_TEXT,
  STREAM_ARGS,
  STREAM_TOOL_DELTAS,
  makeSink,
};
