/** Where two values first differ, and what each side holds there. */
export interface Difference {
  /** A path from the root, `$` for the root itself: `$.city`, `$.days[2].high`. */
  readonly path: string;
  readonly expected: unknown;
  readonly found: unknown;
}

/** How {@link firstDifference} compares objects. */
export interface CompareMode {
  /**
   * `true`: the expected object's keys must be present and match, extra keys in the found value
   * are allowed (recursively; arrays still compare element by element, same length).
   */
  readonly subset?: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The JSON-structural form of a value: its `toJSON()` when it has one (a Date becomes its ISO
 * text), a Map its entries, a Set its values; anything else unchanged.
 */
function structural(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Map) return [...value.entries()];
  if (value instanceof Set) return [...value.values()];
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      return (toJSON as (this: unknown) => unknown).call(value);
    } catch {
      return value;
    }
  }
  return value;
}

function sameLeaf(a: unknown, b: unknown): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/** Own enumerable string keys whose value is not `undefined` (JSON drops those). */
function definedKeys(value: object): string[] {
  return Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
}

function compare(
  expected: unknown,
  found: unknown,
  path: string,
  mode: CompareMode,
  seen: WeakMap<object, WeakSet<object>>,
): Difference | undefined {
  const a = structural(expected);
  const b = structural(found);
  if (sameLeaf(a, b)) return undefined;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return { path, expected: a, found: b };
  }
  // A pair already being compared higher up (a cycle) is taken as equal.
  let partners = seen.get(a);
  if (partners?.has(b) === true) return undefined;
  if (partners === undefined) {
    partners = new WeakSet();
    seen.set(a, partners);
  }
  partners.add(b);
  if (Array.isArray(a) !== Array.isArray(b)) return { path, expected: a, found: b };
  if (Array.isArray(a) && Array.isArray(b)) {
    const shared = Math.min(a.length, b.length);
    for (let index = 0; index < shared; index += 1) {
      const diff = compare(a[index], b[index], childPath(path, index), mode, seen);
      if (diff !== undefined) return diff;
    }
    if (a.length !== b.length) {
      const index = shared;
      return { path: childPath(path, index), expected: a[index], found: b[index] };
    }
    return undefined;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of definedKeys(left)) {
    const diff = compare(left[key], right[key], childPath(path, key), mode, seen);
    if (diff !== undefined) return diff;
  }
  if (mode.subset !== true) {
    for (const key of definedKeys(right)) {
      if (left[key] === undefined) {
        return { path: childPath(path, key), expected: undefined, found: right[key] };
      }
    }
  }
  return undefined;
}

/**
 * The first place where `found` differs from `expected`, compared as JSON would see them: class
 * instances by their own enumerable properties, `undefined` properties as absent, values with
 * `toJSON` (dates) by its result; `undefined` when they are equal. With `mode.subset`, extra keys
 * in `found` objects are allowed.
 */
export function firstDifference(
  expected: unknown,
  found: unknown,
  mode: CompareMode = {},
): Difference | undefined {
  return compare(expected, found, '$', mode, new WeakMap());
}
