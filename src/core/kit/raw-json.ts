import { JsonParseError, type JsonPathSegment } from './json-parse-error';
import type { JsonLimits } from './safe-json';

export { JsonParseError, type JsonPathSegment } from './json-parse-error';

/**
 * A small, strict JSON parser (RFC 8259, no extensions) that can hand back the raw source text
 * of chosen values instead of their parsed form, so that tool-call `args` round-trip
 * token-exactly. Decisions:
 * - A leading byte order mark is rejected, as `JSON.parse` does.
 * - `__proto__` keys are rejected in every object the parser builds; inside raw values they are
 *   only text and are accepted. Other keys are assigned normally; duplicates: the last wins.
 * - Lone surrogates (escaped or not) are accepted, as `JSON.parse` does.
 * - Depth counts arrays and objects: a scalar has depth 0, `[]` depth 1, `[[1]]` depth 2.
 */

/** Default largest accepted text, in UTF-16 code units (4 MiB, as for `parseUntrustedJson`). */
export const RAW_JSON_DEFAULT_MAX_LENGTH = 4 * 1024 * 1024;
/** Default deepest accepted nesting of arrays and objects. */
export const RAW_JSON_DEFAULT_MAX_DEPTH = 256;
/** Largest `maxDepth` the parser supports; it recurses once per level, so this bounds its stack. */
export const RAW_JSON_MAX_SUPPORTED_DEPTH = 1000;

/** The source text of a JSON value kept raw: number spellings and string escapes as written, whitespace outside strings removed. */
export class RawJson {
  /** Compact JSON text of the value. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** Options of {@link parseJsonWithRaw}. */
export interface RawJsonOptions extends JsonLimits {
  /**
   * Whether the value at `path` is returned as a {@link RawJson} instead of being parsed. Called
   * once per value outside raw values; the array is reused, so copy it to keep it.
   */
  rawAt?: (path: readonly JsonPathSegment[]) => boolean;
}

/**
 * Parses `text` into plain values (arrays, plain objects, strings, numbers, booleans, `null`),
 * returning a {@link RawJson} wherever `options.rawAt` says so. Throws `JsonParseError`.
 */
export function parseJsonWithRaw(text: string, options: RawJsonOptions = {}): unknown {
  return new Parser(text, options).document(true);
}

/**
 * Validates `text` as JSON (throwing `JsonParseError`) and returns it with the whitespace
 * outside strings removed; everything else is kept as written.
 */
export function compactJson(text: string, limits: JsonLimits = {}): string {
  new Parser(text, limits).document(false);
  return compactValidJson(text);
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

/** Recursive-descent parser; `materialize` false validates without building values. */
class Parser {
  private pos = 0;
  private readonly path: JsonPathSegment[] = [];
  private readonly maxDepth: number;
  private readonly rawAt: ((path: readonly JsonPathSegment[]) => boolean) | undefined;

  constructor(
    private readonly text: string,
    options: RawJsonOptions,
  ) {
    const maxLength = options.maxLength ?? RAW_JSON_DEFAULT_MAX_LENGTH;
    this.maxDepth = options.maxDepth ?? RAW_JSON_DEFAULT_MAX_DEPTH;
    this.rawAt = options.rawAt;
    if (!(this.maxDepth >= 0 && this.maxDepth <= RAW_JSON_MAX_SUPPORTED_DEPTH)) {
      throw new RangeError(
        `maxDepth must be between 0 and ${RAW_JSON_MAX_SUPPORTED_DEPTH}, got ${this.maxDepth}`,
      );
    }
    if (text.length > maxLength)
      this.fail(`JSON text is ${text.length} characters; the limit is ${maxLength}`, maxLength);
  }

  document(materialize: boolean): unknown {
    const value = this.value(materialize, 0);
    this.skipWhitespace();
    if (this.pos < this.text.length)
      this.fail(`unexpected ${this.describe(this.pos)} after the JSON value`);
    return value;
  }

  private value(materialize: boolean, depth: number): unknown {
    this.skipWhitespace();
    if (materialize && this.rawAt?.(this.path) === true) {
      const start = this.pos;
      this.value(false, depth);
      return new RawJson(compactValidJson(this.text.slice(start, this.pos)));
    }
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b) return this.object(materialize, depth + 1);
    if (c === 0x5b) return this.array(materialize, depth + 1);
    if (c === 0x22) return this.string(materialize);
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    if (c === 0x2d || isDigit(c)) return this.number(materialize);
    return this.fail(`unexpected ${this.describe(this.pos)}; expected a JSON value`);
  }

  private object(materialize: boolean, depth: number): Record<string, unknown> | undefined {
    this.enter(depth);
    const result: Record<string, unknown> | undefined = materialize ? {} : undefined;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      const keyStart = this.pos;
      if (this.text.charCodeAt(keyStart) !== 0x22)
        this.fail(`unexpected ${this.describe(keyStart)}; expected a string key`);
      const key = this.string(true) as string;
      if (materialize && key === '__proto__')
        this.fail('object key "__proto__" is not allowed', keyStart);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a)
        this.fail(`unexpected ${this.describe(this.pos)}; expected ':'`);
      this.pos++;
      this.path.push(key);
      const item = this.value(materialize, depth);
      this.path.pop();
      if (result !== undefined) result[key] = item;
      if (this.endOfMember(0x7d)) return result;
    }
  }

  private array(materialize: boolean, depth: number): unknown[] | undefined {
    this.enter(depth);
    const result: unknown[] | undefined = materialize ? [] : undefined;
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return result;
    }
    for (let index = 0; ; index++) {
      this.path.push(index);
      const item = this.value(materialize, depth);
      this.path.pop();
      result?.push(item);
      if (this.endOfMember(0x5d)) return result;
    }
  }

  /** Consumes `,` (returns false) or the closing bracket `close` (returns true). */
  private endOfMember(close: number): boolean {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    this.pos++;
    if (c === 0x2c) return false;
    if (c === close) return true;
    return this.fail(
      `unexpected ${this.describe(this.pos - 1)}; expected ',' or '${String.fromCharCode(close)}'`,
      this.pos - 1,
    );
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth)
      this.fail(`nesting is deeper than the limit of ${this.maxDepth} levels`);
    this.pos++;
  }

  private string(build: boolean): string | undefined {
    const text = this.text;
    const open = this.pos;
    let out = '';
    let i = open + 1;
    let chunk = i;
    for (;;) {
      if (i >= text.length) this.fail('unterminated string', open);
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return build ? out + text.slice(chunk, i) : undefined;
      }
      if (c < 0x20) this.fail(`unescaped control character ${this.describe(i)} in string`, i);
      if (c !== 0x5c) {
        i++;
        continue;
      }
      if (build) out += text.slice(chunk, i);
      const e = text.charCodeAt(i + 1);
      const simple = SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        if (build) out += simple;
        i += 2;
      } else if (e === 0x75) {
        const hex = text.slice(i + 2, i + 6);
        if (!HEX4.test(hex)) this.fail('invalid \\u escape; expected four hex digits', i);
        if (build) out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        this.fail(
          i + 1 >= text.length ? 'unterminated string' : `invalid escape \\${text.charAt(i + 1)}`,
          i,
        );
      }
      chunk = i;
    }
  }

  private number(build: boolean): number | undefined {
    const text = this.text;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) {
      i++;
      if (isDigit(text.charCodeAt(i))) this.fail('leading zeros are not allowed', start);
    } else if (isDigit(text.charCodeAt(i))) {
      while (isDigit(text.charCodeAt(i))) i++;
    } else this.fail(`unexpected ${this.describe(i)}; expected a digit`, i);
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i)))
        this.fail(`unexpected ${this.describe(i)}; expected a digit after '.'`, i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    if ((text.charCodeAt(i) | 0x20) === 0x65) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i)))
        this.fail(`unexpected ${this.describe(i)}; expected an exponent digit`, i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.pos = i;
    return build ? Number(text.slice(start, i)) : undefined;
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos))
      this.fail(`unexpected ${this.describe(this.pos)}; expected a JSON value`);
    this.pos += word.length;
    return value;
  }

  private skipWhitespace(): void {
    while (isWhitespace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** `'x'` for printable characters, `U+XXXX` for others, `end of input` past the end. */
  private describe(i: number): string {
    if (i >= this.text.length) return 'end of input';
    const c = this.text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xfeff || (c >= 0xd800 && c <= 0xdfff)) {
      return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    }
    return `'${this.text.charAt(i)}'`;
  }

  private fail(reason: string, position: number = this.pos): never {
    throw new JsonParseError(reason, position, [...this.path]);
  }
}

/** Removes the whitespace outside strings from already validated JSON text. */
function compactValidJson(text: string): string {
  let out = '';
  let chunk = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i++;
      while (text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
    } else if (isWhitespace(c)) {
      out += text.slice(chunk, i);
      while (isWhitespace(text.charCodeAt(i))) i++;
      chunk = i;
    } else i++;
  }
  return chunk === 0 ? text : out + text.slice(chunk);
}
