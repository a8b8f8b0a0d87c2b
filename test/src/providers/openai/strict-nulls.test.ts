/**
 * `stripAddedNulls`: removing the nulls strict mode makes the model write for optional properties.
 */
import type { JsonSchema } from 'golem';
import { stripAddedNulls } from 'golem/providers/openai';

describe('stripAddedNulls', () => {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      nick: { type: 'string' },
      note: { type: ['string', 'null'] },
      pet: { $ref: '#/$defs/Pet' },
      list: { type: 'array', items: { $ref: '#/$defs/Pet' } },
    },
    required: ['name'],
    $defs: {
      Pet: {
        type: 'object',
        properties: { kind: { type: 'string' }, age: { type: 'integer' } },
        required: ['kind'],
      },
    },
  };

  test('removes nulls of optional properties that do not accept null, at every depth', () => {
    const answer = JSON.stringify({
      name: 'Ann',
      nick: null,
      note: null,
      pet: { kind: 'cat', age: null },
      list: [
        { kind: 'dog', age: 3 },
        { kind: 'eel', age: null },
      ],
    });
    expect(JSON.parse(stripAddedNulls(answer, schema))).toEqual({
      name: 'Ann',
      note: null,
      pet: { kind: 'cat' },
      list: [{ kind: 'dog', age: 3 }, { kind: 'eel' }],
    });
  });

  test('leaves the text untouched when nothing is removed or it is not JSON', () => {
    const answer = '{ "name": "Ann",\n  "note": null }';
    expect(stripAddedNulls(answer, schema)).toBe(answer);
    expect(stripAddedNulls('not json', schema)).toBe('not json');
  });

  test('a null in a required property is kept (the validator will report it)', () => {
    expect(stripAddedNulls('{"name":null}', schema)).toBe('{"name":null}');
  });
});
