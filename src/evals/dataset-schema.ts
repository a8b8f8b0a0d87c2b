import type { JsonSchema, JsonValue } from '../core/index';

const count: JsonSchema = { type: 'number', minimum: 0 };

const toolName: JsonSchema = { type: 'string', minLength: 1 };

const trajectorySteps: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: {
    anyOf: [
      toolName,
      {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: toolName, args: { description: 'The arguments expected.' } },
      },
    ],
  },
};

const evaluatorSpec: JsonSchema = {
  description:
    "An evaluator: a bare name (no argument: `contains` and `equals` then use the case's `expected`), or an object with one evaluator key (a built-in or a name registered in the `evaluators` option of loadDataset) and an optional `name` renaming it.",
  anyOf: [
    {
      type: 'string',
      minLength: 1,
      examples: ['equals', 'contains'],
    },
    {
      type: 'object',
      minProperties: 1,
      maxProperties: 2,
      if: { required: ['name'] },
      then: { minProperties: 2 },
      else: { maxProperties: 1 },
      properties: {
        name: { type: 'string', minLength: 1, description: 'Renames the evaluator in reports.' },
        equals: { description: 'The output deep-equals this value.' },
        contains: {
          description:
            "The output (or its JSON text) contains the text(s); default the case's expected.",
          anyOf: [
            { type: 'null' },
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                needle: {
                  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
                },
                caseSensitive: { type: 'boolean' },
                all: { type: 'boolean' },
              },
            },
          ],
        },
        matchesSchema: {
          type: 'object',
          description: 'The output validates against this JSON Schema (needs the ajv package).',
        },
        calledTool: {
          description: 'The run called this tool (with arguments including `args`, when given).',
          anyOf: [
            toolName,
            {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: { name: toolName, args: {} },
            },
          ],
        },
        neverCalled: {
          description: 'The run never called this tool (or any of these tools).',
          anyOf: [toolName, { type: 'array', minItems: 1, items: toolName }],
        },
        toolTrajectory: {
          description: 'The run called these tools (default order: in-order).',
          anyOf: [
            trajectorySteps,
            {
              type: 'object',
              required: ['tools'],
              additionalProperties: false,
              properties: {
                tools: trajectorySteps,
                order: { enum: ['exact', 'in-order', 'any'] },
                args: { enum: ['subset', 'exact'] },
              },
            },
          ],
        },
        maxTurns: { ...count, description: 'At most this many model turns.' },
        maxRequests: { ...count, description: 'At most this many model requests.' },
        maxLatency: { ...count, description: 'At most this many milliseconds.' },
        maxCost: { ...count, description: 'At most this cost (fails when the run is not priced).' },
        maxTokens: {
          description: 'At most this many tokens (total by default).',
          anyOf: [
            count,
            {
              type: 'object',
              required: ['max'],
              additionalProperties: false,
              properties: { max: count, kind: { enum: ['total', 'input', 'output'] } },
            },
          ],
        },
        hasEvent: {
          description: 'The run emitted an event of this kind (at least once, or min..max times).',
          anyOf: [
            { type: 'string', minLength: 1 },
            {
              type: 'object',
              required: ['kind'],
              additionalProperties: false,
              properties: { kind: { type: 'string', minLength: 1 }, min: count, max: count },
            },
          ],
        },
      },
    },
  ],
};

function deepFreeze<T extends JsonValue>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The JSON Schema (draft 2020-12) of a dataset file, for editors: the same document ships as
 * `schemas/dataset.schema.json`, so a YAML file can start with
 * `# yaml-language-server: $schema=../node_modules/golem/schemas/dataset.schema.json` (and a JSON
 * file can set `"$schema"`). It checks the shape and the built-in evaluator specs; what it
 * cannot express (unique case names, registered evaluator names) `loadDataset` checks.
 */
export const DATASET_JSON_SCHEMA: JsonSchema = deepFreeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'golem eval dataset',
  description:
    'A dataset of golem/evals: named cases (an input for the task, optionally the output expected) and evaluators.',
  type: 'object',
  required: ['name', 'cases'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1, description: 'Names the dataset in reports.' },
    description: { type: 'string', description: 'For readers; not kept when loaded.' },
    evaluators: { $ref: '#/$defs/evaluators', description: 'Applied to every case.' },
    cases: { type: 'array', minItems: 1, items: { $ref: '#/$defs/case' } },
  },
  $defs: {
    case: {
      type: 'object',
      required: ['name', 'input'],
      additionalProperties: false,
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          description: 'Unique within the dataset; names the case in reports and cassettes.',
        },
        description: { type: 'string', description: 'For readers; not kept when loaded.' },
        input: {
          description: 'What the task receives (for an agent: a prompt, or { prompt, deps }).',
        },
        expected: { description: 'The output expected, for evaluators that compare.' },
        metadata: { type: 'object', description: 'Free-form facts kept in the report.' },
        evaluators: { $ref: '#/$defs/evaluators', description: 'For this case only.' },
      },
    },
    evaluators: { type: 'array', items: { $ref: '#/$defs/evaluator' } },
    evaluator: evaluatorSpec,
  },
});
