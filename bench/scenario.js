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
};
