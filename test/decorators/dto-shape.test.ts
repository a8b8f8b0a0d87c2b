/**
 * The DTO boundary enforces shape: each property accepts exactly the arity its TypeScript type
 * declares (one nested DTO, an array, a Set, a Map), recursively, and a rejection names the path
 * (`address: expected an object, got an array`). class-validator alone walks arrays whether or
 * not `each` is set, so these inputs used to come back as instances of the wrong shape.
 */
import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { ModelRetry } from 'golem';
import {
  Agent,
  Output,
  OUTPUT_TYPE,
  Tool,
  agentFromClass,
  compileAgentClass,
  dtoSchema,
  validateDto,
} from 'golem/decorators';
import { ScriptedModel, textResponse } from 'golem/testing';
import {
  Address,
  Company,
  Containers,
  Loose,
  Many,
  ManyWithoutEach,
  Name,
  NullableNested,
  One,
  OptionalNested,
  Tags,
} from './fixtures/shapes';
import { TreeNode } from './fixtures/matrix';
import { configErrorOf } from '../support/config-error';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (ModelRetry.is(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a ModelRetry');
}

describe('a nested DTO accepts exactly its declared arity', () => {
  test.each([
    ['an array of objects', [{ city: 'Lagos' }]],
    ['an empty array', []],
  ])('one nested DTO rejects %s', (_label, address) => {
    expect(reasonOf(() => validateDto(One, { address }))).toBe(
      'address: expected an object, got an array',
    );
  });

  test.each([
    ['with { each: true }', Many],
    ['without each', ManyWithoutEach],
  ])('an array of DTOs %s rejects a single object', (_label, dto) => {
    expect(reasonOf(() => validateDto(dto, { addresses: { city: 'Lagos' } }))).toBe(
      'addresses: expected an array, got an object',
    );
  });

  test('the elements of an array of DTOs must be objects, not arrays or primitives', () => {
    expect(
      reasonOf(() => validateDto(Many, { addresses: [[{ city: 'Lagos' }], 'Abuja', null] })),
    ).toBe(
      'addresses[0]: expected an object, got an array; addresses[1]: expected an object, got a string; addresses[2]: expected an object, got null',
    );
  });

  test('a required nested DTO that is missing is reported', () => {
    expect(reasonOf(() => validateDto(One, {}))).toBe('address: is required');
  });

  test('null for a required nested DTO is rejected', () => {
    expect(reasonOf(() => validateDto(One, { address: null }))).toBe(
      'address: expected an object, got null',
    );
  });

  test('valid input gives instances of the declared classes', () => {
    const one = validateDto(One, { address: { city: 'Lagos' } });
    const many = validateDto(Many, { addresses: [{ city: 'Lagos' }] });
    expect(one.address).toBeInstanceOf(Address);
    expect(many.addresses[0]).toBeInstanceOf(Address);
  });
});

describe('primitives accept exactly their declared arity', () => {
  test('@IsString() rejects an array of strings', () => {
    expect(reasonOf(() => validateDto(Name, { name: ['Ada', 'Grace'] }))).toBe(
      'name: expected a string, got an array',
    );
  });

  test('string[] with @IsString({ each: true }) rejects a bare string', () => {
    expect(reasonOf(() => validateDto(Tags, { tags: 'urgent' }))).toBe(
      'tags: expected an array, got a string',
    );
  });

  test('@Allow() on a string property still requires a string, and the property', () => {
    expect(reasonOf(() => validateDto(Loose, { label: 5, anything: [1] }))).toBe(
      'label: expected a string, got a number',
    );
    expect(reasonOf(() => validateDto(Loose, { label: 'x' }))).toBe('anything: is required');
  });

  test("class-validator's own message wins where it reports the same path", () => {
    expect(reasonOf(() => validateDto(Name, { name: 5 }))).toBe('name: must be a string');
    expect(reasonOf(() => validateDto(Name, {}))).toBe('name: must be a string');
  });
});

describe('the guard runs recursively', () => {
  test('a DTO inside an array inside a DTO: every path is named', () => {
    const input = {
      teams: [
        { name: 'a', office: [{ city: 'Lagos' }] },
        { name: 'b', office: { city: 'Abuja' }, sites: { city: 'Kano' } },
        { name: 'c', office: { city: 'Ibadan', floor: 3 } },
      ],
    };
    expect(reasonOf(() => validateDto(Company, input))).toBe(
      'teams[0].office: expected an object, got an array; teams[1].sites: expected an array, got an object; teams[2].office.floor: is not an allowed property',
    );
  });

  test('a recursive DTO is checked at every depth', () => {
    const input = { label: 'root', children: [{ label: 'leaf', children: { label: 'x' } }] };
    expect(reasonOf(() => validateDto(TreeNode, input))).toBe(
      'children[0].children: expected an array, got an object',
    );
  });

  test('a deep valid input has the declared classes at every level', () => {
    const company = validateDto(Company, {
      teams: [{ name: 'a', office: { city: 'Lagos' }, sites: [{ city: 'Kano' }] }],
    });
    expect(company.teams[0]?.office).toBeInstanceOf(Address);
    expect(company.teams[0]?.sites?.[0]).toBeInstanceOf(Address);
  });
});

describe('optional and nullable nesting', () => {
  test('an optional nested DTO may be omitted or null, but not an array', () => {
    expect(validateDto(OptionalNested, {}).home).toBeUndefined();
    expect('home' in validateDto(OptionalNested, { home: null })).toBe(false);
    expect(reasonOf(() => validateDto(OptionalNested, { home: [] }))).toBe(
      'home: expected an object, got an array',
    );
  });

  test('a nullable union keeps null and still enforces the arity its validators declare', () => {
    const value = validateDto(NullableNested, { home: null, past: null });
    expect(value.home).toBeNull();
    expect(value.past).toBeNull();
    expect(reasonOf(() => validateDto(NullableNested, { home: [], past: { city: 'x' } }))).toBe(
      'home: expected an object, got an array; past: expected an array, got an object',
    );
  });
});

describe('sets and maps', () => {
  const valid = {
    places: [{ city: 'Lagos' }],
    labels: ['a', 'b'],
    byName: { home: { city: 'Abuja' } },
    notes: { today: 'sunny' },
  };

  test('are filled from JSON arrays and objects, with instances of nested DTOs', () => {
    const value = validateDto(Containers, valid);
    expect([...value.places][0]).toBeInstanceOf(Address);
    expect(value.labels).toEqual(new Set(['a', 'b']));
    expect(value.byName.get('home')).toBeInstanceOf(Address);
    expect(value.notes).toEqual(new Map([['today', 'sunny']]));
  });

  test('reject the wrong arity and validate what they hold', () => {
    expect(
      reasonOf(() => validateDto(Containers, { ...valid, labels: 'a', notes: ['sunny'] })),
    ).toBe('labels: expected an array, got a string; notes: expected an object, got an array');
    expect(
      reasonOf(() =>
        validateDto(Containers, { ...valid, byName: { home: { city: 1 } }, notes: { a: 2 } }),
      ),
    ).toBe('byName.home.city: must be a string; notes: each value must be a string');
  });

  test('a Map of primitives is described as a JSON object', () => {
    expect(dtoSchema(Containers).properties).toMatchObject({
      notes: { type: 'object', additionalProperties: { type: 'string' } },
    });
  });
});

describe('declared arity and validators must agree', () => {
  test('one nested DTO validated with { each: true } is a definition error', () => {
    class Confused {
      @ValidateNested({ each: true }) @Type(() => Address) address!: Address;
    }
    @Agent()
    class UsesIt {
      @Tool({ description: 'x' })
      save(args: Confused): string {
        return args.address.city;
      }
    }
    expect(() => compileAgentClass(UsesIt)).toThrow(configErrorOf('decorators'));
    expect(() => compileAgentClass(UsesIt)).toThrow(
      'Confused.address: the property is declared as one Address but validated as an array',
    );
  });

  test('a string validated with { each: true } is a definition error', () => {
    class Confused {
      @IsString({ each: true }) name!: string;
    }
    expect(() => validateDto(Confused, { name: 'x' })).toThrow(
      /Confused\.name: the property is declared as one string but validated as an array/,
    );
  });
});

describe('@Output never returns an instance of another shape', () => {
  @Agent({ outputRetries: 1 })
  @Output(One)
  class WhereAgent {
    declare readonly [OUTPUT_TYPE]: One;
  }

  test('an output with an array for one nested DTO is corrected, not returned', async () => {
    const model = new ScriptedModel([
      textResponse('{"address":[{"city":"Lagos"}]}'),
      textResponse('{"address":{"city":"Lagos"}}'),
    ]);
    const result = await agentFromClass(new WhereAgent(), { model }).run('Where?');
    expect(result.messages[2]?.content).toBe(
      'Your previous response was rejected: address: expected an object, got an array. Correct it and respond again.',
    );
    expect(result.output.address).toBeInstanceOf(Address);
  });

  test('the compiled output parser rejects a missing nested DTO', () => {
    const parse = compileAgentClass(WhereAgent).output?.parse;
    expect(reasonOf(() => parse?.({}))).toBe('address: is required');
  });
});
