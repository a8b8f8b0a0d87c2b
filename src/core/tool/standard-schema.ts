/**
 * Standard Schema v1 (standardschema.dev): the validation interface zod 4, valibot, arktype and
 * others implement under a `~standard` property. The spec is meant to be copied as types, so
 * golem declares it here and needs no package for it; any conforming schema fits these types.
 */
import { ConfigError } from '../kit/config-error';
import { isObjectLike, safeGet } from '../kit/safe-inspect';

/** A Standard Schema: validates `unknown` into `Output` (zod, valibot, arktype, …). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/**
 * The parts of a {@link StandardSchemaV1}, named as `@standard-schema/spec` names them:
 * `StandardSchemaV1.Issue`, `StandardSchemaV1.InferOutput<S>`, …
 */
// A type-only namespace merged with the interface: the spec's own shape, no code emitted.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The `~standard` property of a {@link StandardSchemaV1}. */
  interface Props<Input = unknown, Output = Input> {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The library, e.g. `'zod'`, `'valibot'`, `'arktype'`. */
    readonly vendor: string;
    /** Validates a value; the result may be a promise (an async refinement). */
    readonly validate: (
      value: unknown,
      options?: Options,
    ) => Result<Output> | Promise<Result<Output>>;
    /** Type-level only: the input and output types of the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** Options a caller may pass to `validate`. */
  interface Options {
    /** Vendor-specific options. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }

  /** The input and output types of a schema (type-level only). */
  interface Types<Input = unknown, Output = Input> {
    /** The type the schema accepts. */
    readonly input: Input;
    /** The type validation produces. */
    readonly output: Output;
  }

  /** What `validate` returns: the value, or the issues. */
  type Result<Output> =
    { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly Issue[] };

  /** One validation problem. */
  interface Issue {
    /** What is wrong. */
    readonly message: string;
    /** Where: keys and indices from the root (plain or as `{ key }` segments). */
    readonly path?: readonly (PropertyKey | PathSegment)[] | undefined;
  }

  /** A path segment given as an object. */
  interface PathSegment {
    /** The key or index. */
    readonly key: PropertyKey;
  }

  /** The type a Standard Schema accepts. */
  type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];

  /** The type a Standard Schema produces (what a tool's `args` or an output is typed as). */
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];
}

/** Whether `value` implements Standard Schema v1 (a `~standard` with `version: 1` and `validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (!isObjectLike(value)) return false;
  const props = safeGet(value, '~standard');
  return (
    isObjectLike(props) &&
    safeGet(props, 'version') === 1 &&
    typeof safeGet(props, 'validate') === 'function'
  );
}

/** The schema's library name (`'zod'`, `'valibot'`, …), or `'unknown'`; never throws. */
export function vendorOf(schema: StandardSchemaV1): string {
  const vendor = safeGet(safeGet(schema, '~standard'), 'vendor');
  return typeof vendor === 'string' && vendor !== '' ? vendor : 'unknown';
}

/**
 * A Standard Schema cannot be used: no JSON Schema can be derived from it, its converter package
 * is missing, or its `validate` broke the contract. A {@link ConfigError} of component `schema`,
 * reason `unusable-schema`, naming the library (`vendor`) and the fix.
 */
export function standardSchemaError(
  vendor: string,
  message: string,
  options?: { cause?: unknown },
): ConfigError {
  return new ConfigError(message, {
    component: 'schema',
    reason: 'unusable-schema',
    vendor,
    cause: options?.cause,
  });
}

/** Whether `value` is the error of an unusable Standard Schema (see `standardSchemaError`). */
export function isStandardSchemaError(value: unknown): value is ConfigError {
  return ConfigError.is(value, 'schema', 'unusable-schema');
}
