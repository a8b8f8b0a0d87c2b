/** Where two JSON values first differ, and both sides rendered short. */
export interface Difference {
  path: string;
  recorded: string;
  received: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PREVIEW = 80;

/**
 * The first place (depth first, recorded keys in order, then keys only the received value has)
 * where `received` differs from `recorded`, or `undefined` when they are equal as JSON values.
 */
export function firstDifference(
  recorded: unknown,
  received: unknown,
  path: string,
): Difference | undefined {
  if (Array.isArray(recorded) && Array.isArray(received)) {
    const shared = Math.min(recorded.length, received.length);
    for (let i = 0; i < shared; i++) {
      const inner = firstDifference(recorded[i], received[i], `${path}[${i}]`);
      if (inner !== undefined) return inner;
    }
    if (recorded.length === received.length) return undefined;
    return differ(`${path}[${shared}]`, recorded[shared], received[shared]);
  }
  if (isObject(recorded) && isObject(received)) {
    const keys = [
      ...Object.keys(recorded),
      ...Object.keys(received).filter((key) => !Object.hasOwn(recorded, key)),
    ];
    for (const key of keys) {
      const inner = firstDifference(own(recorded, key), own(received, key), child(path, key));
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (Object.is(recorded, received)) return undefined;
  if (typeof recorded === 'number' && recorded === received) return undefined;
  return differ(path, recorded, received);
}

function differ(path: string, recorded: unknown, received: unknown): Difference {
  return { path, recorded: preview(recorded), received: preview(received) };
}

function child(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON rendering cut to a readable length; `(absent)` for a missing value. */
export function preview(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
}
