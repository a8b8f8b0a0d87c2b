/** What a job may carry: plain JSON, checked before anything is written, naming the culprit. */
import fc from 'fast-check';
import { QueueError } from 'golem/queue';
import { plainJson } from '../../../src/queue/plain-json';

const check = (value: unknown): string =>
  plainJson(value, 'deps', 'invalid-deps', 'send plain JSON');

test('any JSON value passes and is returned as its JSON text', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      expect(check(value)).toBe(JSON.stringify(value));
    }),
  );
});

test('undefined object properties are dropped, as JSON does', () => {
  expect(check({ a: 1, b: undefined })).toBe('{"a":1}');
});

test.each([
  [{ when: new Date(0) }, 'deps.when is a Date (send value.toISOString())'],
  [{ list: [1, undefined] }, 'deps.list[1] is undefined'],
  [{ 'odd key': { n: Infinity } }, 'deps["odd key"].n is Infinity (not a finite number)'],
  [{ s: new Set([1]) }, 'deps.s is a Set (send [...set])'],
  [{ sym: Symbol('x') }, 'deps.sym is a symbol'],
  [new (class Session {})(), 'deps is an instance of Session'],
])('%o is refused: %s', (value, problem) => {
  let thrown: unknown;
  try {
    check(value);
  } catch (error) {
    thrown = error;
  }
  expect(QueueError.isReason(thrown, 'invalid-deps')).toBe(true);
  expect((thrown as Error).message).toBe(`${problem}: send plain JSON`);
});

test('a value nested too deep is refused instead of overflowing the stack', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100; i++) deep = [deep];
  expect(() => check(deep)).toThrow(/nests deeper than 64 levels/);
});

test('a non-JSON value anywhere in a JSON tree is found', () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), fc.nat(), (items, at) => {
      const copy: unknown[] = [...items];
      copy.splice(at % (copy.length + 1), 0, { when: new Date(0) });
      expect(() => check({ items: copy })).toThrow(/deps\.items\[\d+\]\.when is a Date/);
    }),
  );
});
