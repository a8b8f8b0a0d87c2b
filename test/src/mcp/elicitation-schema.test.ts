/**
 * `elicitationProblems`: an accepted form answer checked against the protocol's restricted
 * schema — every primitive kind, `required`, unasked fields, and messages that never echo values.
 */
import { elicitationProblems } from 'golem/mcp';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', minimum: 0.5 },
    agree: { type: 'boolean' },
    size: { type: 'string', enum: ['s', 'm', 'l'] },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'One' },
        { const: 'h2', title: 'Two' },
      ],
    },
    tags: {
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: { type: 'string', enum: ['a', 'b', 'c'] },
    },
    fish: { type: 'array', items: { anyOf: [{ const: 'cod', title: 'Cod' }] } },
  },
  required: ['name'],
};

test('an answer that fits has no problems', () => {
  expect(
    elicitationProblems(schema, {
      name: 'Ada',
      email: 'ada@example.com',
      site: 'https://example.com/a',
      born: '1815-12-10',
      at: '2025-01-31T09:30:00.5+01:00',
      age: 36,
      ratio: 0.5,
      agree: false,
      size: 'm',
      hero: 'h2',
      tags: ['a', 'c'],
      fish: ['cod'],
    }),
  ).toEqual([]);
});

test.each([
  [{}, 'field "name" is required'],
  [{ name: 'A' }, 'field "name" must have at least 2 characters'],
  [{ name: 'Adelaide' }, 'field "name" must have at most 5 characters'],
  [{ name: 7 }, 'field "name" must be a string'],
  [{ name: 'Ada', email: 'ada.example.com' }, 'field "email" must be an email address'],
  [{ name: 'Ada', site: 'example.com' }, 'field "site" must be an absolute URI'],
  [{ name: 'Ada', born: '1815-02-30' }, 'field "born" must be a date (YYYY-MM-DD)'],
  [
    { name: 'Ada', at: '2025-01-31 25:00:00Z' },
    'field "at" must be a date-time (RFC 3339, e.g. 2025-01-31T09:30:00Z)',
  ],
  [
    { name: 'Ada', at: '2025-01-31T09:30:00' },
    'field "at" must be a date-time (RFC 3339, e.g. 2025-01-31T09:30:00Z)',
  ],
  [{ name: 'Ada', age: 36.5 }, 'field "age" must be an integer'],
  [{ name: 'Ada', age: -1 }, 'field "age" must be at least 0'],
  [{ name: 'Ada', age: 151 }, 'field "age" must be at most 150'],
  [{ name: 'Ada', ratio: Number.NaN }, 'field "ratio" must be a number'],
  [{ name: 'Ada', ratio: 0.4 }, 'field "ratio" must be at least 0.5'],
  [{ name: 'Ada', agree: 'yes' }, 'field "agree" must be a boolean'],
  [{ name: 'Ada', size: 'xl' }, 'field "size" must be one of "s", "m", "l"'],
  [{ name: 'Ada', hero: 'h3' }, 'field "hero" must be one of "h1", "h2"'],
  [{ name: 'Ada', tags: [] }, 'field "tags" must hold at least 1 items'],
  [{ name: 'Ada', tags: ['a', 'b', 'c'] }, 'field "tags" must hold at most 2 items'],
  [{ name: 'Ada', tags: ['a', 'z'] }, 'field "tags" must hold only "a", "b", "c"'],
  [{ name: 'Ada', tags: 'a' }, 'field "tags" must be an array of strings'],
  [{ name: 'Ada', fish: ['eel'] }, 'field "fish" must hold only "cod"'],
  [{ name: 'Ada', password: 'hunter2' }, 'field "password" is not in the requested schema'],
])('%j: %s', (content, problem) => {
  expect(elicitationProblems(schema, content)).toEqual([problem]);
});

test('every problem is listed, none echoes the value', () => {
  const problems = elicitationProblems(schema, {
    name: 'x-secret-x',
    email: 'x-secret-x',
    extra: 'x-secret-x',
  });
  expect(problems).toEqual([
    'field "name" must have at most 5 characters',
    'field "email" must be an email address',
    'field "extra" is not in the requested schema',
  ]);
  expect(problems.join('\n')).not.toContain('secret');
});

test('lengths count characters, not UTF-16 units; a leap day is a date', () => {
  expect(elicitationProblems(schema, { name: '😀😀😀😀😀' })).toEqual([]);
  expect(elicitationProblems(schema, { name: 'Ada', born: '2024-02-29' })).toEqual([]);
  expect(elicitationProblems(schema, { name: 'Ada', born: '2023-02-29' })).toHaveLength(1);
});

test('long enum lists are cut short; a property type outside the subset is a problem', () => {
  const many = {
    type: 'object',
    properties: {
      pick: { type: 'string', enum: 'abcdefghij'.split('') },
      deep: { type: 'object' },
    },
  };
  expect(elicitationProblems(many, { pick: 'z', deep: {} })).toEqual([
    'field "pick" must be one of "a", "b", "c", "d", "e", "f", "g", "h", …',
    'field "deep" has a type this client does not support (the schema is not an elicitation schema)',
  ]);
});
