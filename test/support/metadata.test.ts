/**
 * The test transform must keep legacy decorator metadata (ADR 0001): decorators and the
 * container depend on `design:*` keys. This test fails if .swcrc loses `decoratorMetadata`.
 */
const metadata = new Map<string, unknown>();
const record =
  (key: string) =>
  (target: object, property?: string | symbol): void => {
    const get = (
      Reflect as unknown as { getMetadata?: (k: string, t: object, p?: string | symbol) => unknown }
    ).getMetadata;
    metadata.set(key, get?.('design:paramtypes', target, property));
  };

// A minimal Reflect.metadata polyfill, so this smoke test does not depend on reflect-metadata.
const store = new WeakMap<object, Map<string, unknown>>();
const keyOf = (k: string, p?: string | symbol): string => `${k}@${String(p)}`;
Object.assign(Reflect, {
  metadata: (k: string, v: unknown) => (target: object, p?: string | symbol) => {
    const own = store.get(target) ?? new Map<string, unknown>();
    own.set(keyOf(k, p), v);
    store.set(target, own);
  },
  getMetadata: (k: string, target: object, p?: string | symbol) =>
    store.get(target)?.get(keyOf(k, p)),
});

class Args {
  city = '';
}

test('decorator metadata survives the test transform (design:paramtypes on a decorated method)', () => {
  class Subject {
    constructor(readonly name: string) {}

    @record('method')
    forecast(_args: Args, _count: number): string {
      return '';
    }
  }
  expect(metadata.get('method')).toEqual([Args, Number]);
  expect(new Subject('x').name).toBe('x');
});
