/**
 * How Standard Schema issues read for the model: `path: message` problems joined by `; `, in the
 * same path notation as DTO validation, bounded in count and length, never a library's JSON dump.
 */
import { type } from 'arktype';
import fc from 'fast-check';
import * as v from 'valibot';
import { z } from 'zod';
import { ModelRetry, type StandardSchemaV1 } from 'golem';
import { issuesText, validateWithSchema } from '../../../../src/core/tool/standard-issues';

async function reasonOf(schema: StandardSchemaV1, value: unknown): Promise<string> {
  try {
    await validateWithSchema(schema, value);
  } catch (error) {
    if (ModelRetry.is(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a rejection');
}

test('paths use dots for keys, brackets for indices and quotes for odd keys', () => {
  expect(
    issuesText([
      { message: 'm1', path: ['stops', 0, 'name'] },
      { message: 'm2', path: [{ key: 'a' }, { key: 1 }] },
      { message: 'm3', path: ['odd key', '2'] },
      { message: 'm4', path: [Symbol('s')] },
      { message: 'm5' },
    ]),
  ).toBe('stops[0].name: m1; a[1]: m2; ["odd key"][2]: m3; ["Symbol(s)"]: m4; m5');
});

test('at most ten problems are listed, the rest counted; duplicates once', () => {
  const issues = Array.from({ length: 13 }, (_, i) => ({ message: 'bad', path: [`f${i}`] }));
  expect(issuesText([...issues, issues[0]])).toBe(
    `${issues
      .slice(0, 10)
      .map((_, i) => `f${i}: bad`)
      .join('; ')}; and 3 more`,
  );
});

test('hostile issues are bounded: keys clipped to 40 characters, messages to 200', () => {
  const text = issuesText([{ message: 'x'.repeat(5_000), path: ['k'.repeat(5_000)] }]);
  expect(text).toBe(`["${'k'.repeat(39)}…"]: ${'x'.repeat(199)}…`);
});

test('a key cannot forge the "; " between problems: its ";" is escaped', () => {
  const text = issuesText([{ message: 'bad', path: ['x; y: z'] }, { message: 'worse' }]);
  expect(text).toBe('["x\\u003b y: z"]: bad; worse');
  expect(text.split('; ')).toHaveLength(2);
});

test('malformed issues still give a readable line', () => {
  expect(issuesText([null, { message: 42, path: 'nope' }, { message: '  ' }])).toBe('is invalid');
  expect(issuesText([])).toBe('the value is invalid');
});

test('a message that already starts with its path (arktype) names the path once', async () => {
  const reason = await reasonOf(type({ stops: type({ name: 'string' }).array() }), {
    stops: [{ name: 1 }],
  });
  expect(reason).toBe('stops[0].name: must be a string (was a number)');
});

test('nested zod and valibot issues read the same way', async () => {
  expect(
    await reasonOf(z.object({ stops: z.array(z.object({ name: z.string() })) }), { stops: [{}] }),
  ).toBe('stops[0].name: Invalid input: expected string, received undefined');
  expect(
    await reasonOf(v.object({ stops: v.array(v.object({ name: v.string() })) }), { stops: [{}] }),
  ).toBe('stops[0].name: Invalid key: Expected "name" but received undefined');
});

test('a root-level issue has no path prefix', async () => {
  expect(await reasonOf(z.object({ a: z.string() }), 'text')).toBe(
    'Invalid input: expected object, received string',
  );
});

test('the reason is one bounded line for any issue list', () => {
  const segment = fc.oneof(fc.string(), fc.nat(), fc.record({ key: fc.string() }));
  const issue = fc.record({ message: fc.string(), path: fc.array(segment, { maxLength: 6 }) });
  fc.assert(
    fc.property(fc.array(issue, { maxLength: 30 }), (issues) => {
      const text = issuesText(issues);
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toMatch(/[\n\r]/);
      // 10 lines of at most 6 clipped keys (~44 chars each) and a 200-character message.
      expect(text.length).toBeLessThan(10 * (6 * 50 + 210) + 20);
    }),
  );
});
