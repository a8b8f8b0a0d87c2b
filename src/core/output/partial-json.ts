/** The value parsed from a prefix of a JSON text. */
export interface PartialJson {
  /** What the prefix holds so far (plain objects, arrays, strings, numbers, booleans, null). */
  readonly value: unknown;
  /** Whether the prefix is a whole JSON value (trailing whitespace allowed). */
  readonly complete: boolean;
}

/** Nesting deeper than this yields no value (the decoder sees the whole text anyway). */
const MAX_DEPTH = 512;
const NOTHING = Symbol('nothing'); // the prefix ends before this value starts
const INVALID = Symbol('invalid'); // the text is not a prefix of any JSON text
type Parsed = { value: unknown; complete: boolean } | typeof NOTHING | typeof INVALID;

const LITERALS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['true', true],
  ['false', false],
  ['null', null],
]);
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Parses a prefix of a JSON text (a model's structured answer while it streams) into the value it
 * holds so far, or `undefined` when it holds none yet or is not a prefix of valid JSON. Never
 * throws. Conservative, so every snapshot is consistent with the final value: a string shows the
 * characters received (an unfinished escape is left out); a number or literal appears only once
 * it is finished; an object key appears once its value has started; objects and arrays grow.
 * Object keys are own data properties (a `"__proto__"` key never touches a prototype).
 */
export function parsePartialJson(text: string): PartialJson | undefined {
  const parser = new PrefixParser(text);
  const parsed = parser.value(0);
  if (parsed === NOTHING || parsed === INVALID) return undefined;
  parser.skipSpace();
  if (!parser.atEnd()) return undefined; // trailing text: not a JSON prefix
  return parsed;
}

class PrefixParser {
  private at = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  skipSpace(): void {
    while (!this.atEnd() && ' \t\n\r'.includes(this.text.charAt(this.at))) this.at++;
  }

  value(depth: number): Parsed {
    this.skipSpace();
    if (this.atEnd()) return NOTHING;
    if (depth > MAX_DEPTH) return INVALID;
    const c = this.text.charAt(this.at);
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    return this.literal();
  }

  private object(depth: number): Parsed {
    const object: Record<string, unknown> = {};
    const partial = { value: object, complete: false };
    this.at++; // {
    this.skipSpace();
    if (this.atEnd()) return partial;
    if (this.text.charAt(this.at) === '}') {
      this.at++;
      return { value: object, complete: true };
    }
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) return partial;
      if (this.text.charAt(this.at) !== '"') return INVALID;
      const key = this.string();
      if (key === INVALID || key === NOTHING) return key === INVALID ? INVALID : partial;
      if (!key.complete) return partial;
      this.skipSpace();
      if (this.atEnd()) return partial;
      if (this.text.charAt(this.at) !== ':') return INVALID;
      this.at++;
      const member = this.value(depth + 1);
      if (member === INVALID) return INVALID;
      if (member === NOTHING) return partial;
      Object.defineProperty(object, key.value as string, {
        value: member.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (!member.complete) return partial;
      const next = this.separator('}');
      if (next === 'end') return { value: object, complete: true };
      if (next !== 'more') return next === INVALID ? INVALID : partial;
    }
  }

  private array(depth: number): Parsed {
    const array: unknown[] = [];
    const partial = { value: array, complete: false };
    this.at++; // [
    this.skipSpace();
    if (this.atEnd()) return partial;
    if (this.text.charAt(this.at) === ']') {
      this.at++;
      return { value: array, complete: true };
    }
    for (;;) {
      const element = this.value(depth + 1);
      if (element === INVALID) return INVALID;
      if (element === NOTHING) return partial;
      array.push(element.value);
      if (!element.complete) return partial;
      const next = this.separator(']');
      if (next === 'end') return { value: array, complete: true };
      if (next !== 'more') return next === INVALID ? INVALID : partial;
    }
  }

  /** After a member: `,` (more), the closer (end), the end of the prefix (partial), or invalid. */
  private separator(closer: string): 'more' | 'end' | typeof INVALID | typeof NOTHING {
    this.skipSpace();
    if (this.atEnd()) return NOTHING;
    const c = this.text.charAt(this.at++);
    if (c === ',') return 'more';
    return c === closer ? 'end' : INVALID;
  }

  private string(): Parsed {
    this.at++; // opening quote
    let out = '';
    while (!this.atEnd()) {
      const c = this.text.charAt(this.at);
      if (c === '"') {
        this.at++;
        return { value: out, complete: true };
      }
      if (c < ' ') return INVALID; // raw control characters are not JSON
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      if (this.at + 1 >= this.text.length) break; // unfinished escape: left out
      const e = this.text.charAt(this.at + 1);
      if (e === 'u') {
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) return INVALID;
        if (hex.length < 4) break;
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
        continue;
      }
      const escaped = ESCAPES[e];
      if (escaped === undefined) return INVALID;
      out += escaped;
      this.at += 2;
    }
    this.at = this.text.length;
    return { value: out, complete: false };
  }

  private number(): Parsed {
    const start = this.at;
    while (!this.atEnd() && '+-.eE0123456789'.includes(this.text.charAt(this.at))) this.at++;
    if (this.atEnd()) return NOTHING; // it may go on: shown once finished
    const literal = this.text.slice(start, this.at);
    return NUMBER.test(literal) ? { value: Number(literal), complete: true } : INVALID;
  }

  private literal(): Parsed {
    const rest = this.text.slice(this.at, this.at + 5);
    for (const [word, value] of LITERALS) {
      if (rest.startsWith(word)) {
        this.at += word.length;
        return { value, complete: true };
      }
      if (this.at + rest.length >= this.text.length && word.startsWith(rest)) {
        this.at = this.text.length;
        return NOTHING;
      }
    }
    return INVALID;
  }
}
