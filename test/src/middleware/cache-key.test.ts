import fc from 'fast-check';
import { canonicalJson } from '../../../src/middleware/cache-key';

// The canonical JSON the response-cache key hashes: JSON's meaning, keys sorted at every depth.

test('is JSON with the same meaning as JSON.stringify, whatever the key order', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const text = canonicalJson(value);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    }),
    { seed: 30, numRuns: 300 },
  );
});

test('sorts keys at every depth, drops undefined fields, writes undefined items as null', () => {
  const text = canonicalJson({ b: 1, a: { d: [undefined, 2], c: undefined }, e: () => 1 });

  expect(text).toBe('{"a":{"d":[null,2]},"b":1}');
  expect(canonicalJson({ a: { d: [undefined, 2] }, b: 1 })).toBe(text);
});

test('bytes become their SHA-256, non-finite numbers null, and a cycle is refused', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;

  expect(canonicalJson({ n: Number.NaN, bytes: new Uint8Array([1, 2]) })).toBe(
    '{"bytes":{"sha256":"a12871fee210fb8619291eaea194581cbd2531e4b23759d225f6806923f63222"},"n":null}',
  );
  expect(() => canonicalJson(cyclic)).toThrow('cycle');
});
