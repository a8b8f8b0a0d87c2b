import { GolemError, brandGuard } from './error-base';

/** One step of a path into a JSON document: an object key or an array index. */
export type JsonPathSegment = string | number;

/** A JSON text was malformed, too long or too deep, or carried a `__proto__` key. */
export class JsonParseError extends GolemError {
  /** What is wrong, without the position. */
  readonly reason: string;
  /** Offset of the problem in the text, in UTF-16 code units. */
  readonly position: number;
  /** Path of the value being parsed when the problem was found (`[]` at top level). */
  readonly path: readonly JsonPathSegment[];

  constructor(reason: string, position: number, path: readonly JsonPathSegment[]) {
    super('JsonParseError', `${reason} at position ${position}`);
    this.reason = reason;
    this.position = position;
    this.path = path;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<JsonParseError>('JsonParseError');
}
