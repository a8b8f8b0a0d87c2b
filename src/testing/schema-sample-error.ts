import { GolemError, brandGuard } from '../core/kit/error-base';

/**
 * A schema (or part of it) that {@link sampleFromSchema} cannot produce a value for: an unsupported
 * keyword, a contradiction, or a construct outside the supported subset.
 */
export class SchemaSampleError extends GolemError {
  /** JSON Pointer (URI fragment form, e.g. `#/properties/city`) of the offending schema. */
  readonly path: string;
  /** Why no value could be produced. */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super('SchemaSampleError', `cannot sample schema at ${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<SchemaSampleError>('SchemaSampleError');
}

/** A `$ref` re-entered while it is being expanded; callers with an alternative recover from it. */
export class RecursiveRefError extends SchemaSampleError {}
