import { isRecord } from '../../core/kit/guards';
import { ModelProtocolError } from '../../core/errors/provider-errors';

type Segment = string | number;
type Container = Record<string, unknown> | unknown[];

const MAX_SEGMENTS = 64;
const MAX_INDEX = 10_000;

/**
 * Builds one function call's arguments object. Whole calls (`functionCall.args`) start it;
 * Vertex AI's streamed arguments (`functionCall.partialArgs: [{jsonPath, stringValue |
 * numberValue | boolValue | nullValue, willContinue}]`) set values at JSON paths such as
 * `$.location`, `$.items[0].name` or `$['odd key']`; a `stringValue` for the path whose previous
 * fragment said `willContinue: true` is appended. Keys are defined as own properties, so a path
 * through `__proto__` cannot touch a prototype.
 */
export class ArgsAccumulator {
  private readonly root: Record<string, unknown> = {};
  private continuing: string | undefined;

  constructor(
    private readonly provider: string,
    initial?: Record<string, unknown>,
  ) {
    if (initial !== undefined)
      for (const [key, value] of Object.entries(initial)) define(this.root, key, value);
  }

  /** Applies a `partialArgs` array (ignores `undefined`). */
  apply(partialArgs: unknown): void {
    if (partialArgs === undefined || partialArgs === null) return;
    if (!Array.isArray(partialArgs)) this.fail('functionCall.partialArgs is not an array');
    for (const arg of partialArgs as unknown[]) {
      if (!isRecord(arg) || typeof arg.jsonPath !== 'string')
        this.fail('a partialArgs entry has no jsonPath');
      const path = arg.jsonPath;
      const segments = this.parsePath(path);
      const value = valueOf(arg);
      if (value === undefined) continue;
      const existing = segments.length === 0 ? undefined : this.get(segments);
      if (typeof value === 'string' && this.continuing === path && typeof existing === 'string')
        this.set(segments, existing + value);
      else this.set(segments, value);
      this.continuing = typeof value === 'string' && arg.willContinue === true ? path : undefined;
    }
  }

  /** The arguments as compact JSON text. */
  json(): string {
    return JSON.stringify(this.root);
  }

  private fail(message: string): never {
    throw new ModelProtocolError(this.provider, message);
  }

  private parsePath(path: string): Segment[] {
    if (!path.startsWith('$')) this.fail(`unsupported jsonPath "${path}"`);
    const segments: Segment[] = [];
    const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
    pattern.lastIndex = 1;
    while (pattern.lastIndex < path.length) {
      const match = pattern.exec(path);
      if (match === null) this.fail(`unsupported jsonPath "${path}"`);
      const [, name, index, single, double] = match;
      if (index !== undefined && Number(index) > MAX_INDEX)
        this.fail(`jsonPath "${path}" has an index over ${MAX_INDEX}`);
      if (index !== undefined) segments.push(Number(index));
      else segments.push((name ?? single ?? double ?? '').replace(/\\(.)/g, '$1'));
      if (segments.length > MAX_SEGMENTS) this.fail(`jsonPath "${path}" is too deep`);
    }
    if (segments.length === 0) this.fail(`jsonPath "${path}" names no argument`);
    return segments;
  }

  private get(segments: Segment[]): unknown {
    let current: unknown = this.root;
    for (const segment of segments) {
      if (typeof current !== 'object' || current === null) return undefined;
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
    return current;
  }

  private set(segments: Segment[], value: unknown): void {
    let current: Container = this.root;
    for (const [i, segment] of segments.entries()) {
      if (Array.isArray(current) !== (typeof segment === 'number'))
        this.fail('a jsonPath mixes array indexes and object keys at the same level');
      if (i === segments.length - 1) {
        define(current, segment, value);
        return;
      }
      const existing: unknown = Object.hasOwn(current, segment)
        ? (current as Record<string, unknown>)[segment]
        : undefined;
      let child: Container;
      if (typeof existing === 'object' && existing !== null) child = existing as Container;
      else {
        child = typeof segments[i + 1] === 'number' ? [] : {};
        define(current, segment, child);
      }
      current = child;
    }
  }
}

function define(target: Container, key: Segment, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function valueOf(arg: Record<string, unknown>): unknown {
  if (typeof arg.stringValue === 'string') return arg.stringValue;
  if (typeof arg.numberValue === 'number') return arg.numberValue;
  if (typeof arg.boolValue === 'boolean') return arg.boolValue;
  if ('nullValue' in arg) return null;
  return undefined;
}
