import { describeError } from '../kit/error-base';
import { isRecord } from '../kit/guards';
import type { JsonSchema } from '../kit/json';
import { isObjectLike, safeGet } from '../kit/safe-inspect';
import { canonicalJsonSchema } from './json-schema-canonical';
import type { StandardSchemaV1 } from './standard-schema';
import type { ConfigError } from '../kit/config-error';
import { isStandardSchema, standardSchemaError, vendorOf } from './standard-schema';

/** Loads a converter package; injectable so a missing install can be tested. */
export type ConverterLoader = () => unknown;

/** Where the per-library converters come from (optional peers, loaded only when used). */
export interface ConverterLoaders {
  /** `zod/v4/core` (zod 4, or zod 3.25's bundled v4): `toJSONSchema`. */
  readonly zod: ConverterLoader;
  /** `@valibot/to-json-schema`: `toJsonSchema`. */
  readonly valibot: ConverterLoader;
}

/*
 * Each `require` sits inside a `try`: bundlers (esbuild, and so wrangler for Workers) then leave
 * an optional peer that is not installed to run time instead of failing the app's build.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- optional peers, loaded only when a schema of that library needs converting */
const REQUIRE: ConverterLoaders = {
  zod: () => {
    try {
      return require('zod/v4/core') as unknown;
    } catch (cause) {
      throw notInstalled('zod', cause);
    }
  },
  valibot: () => {
    try {
      return require('@valibot/to-json-schema') as unknown;
    } catch (cause) {
      throw notInstalled('valibot', cause);
    }
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** valibot's validation-only actions: skipped in the JSON Schema, still run by `validate`. */
const VALIBOT_CHECKS = ['check', 'check_items', 'partial_check', 'raw_check'];

const PACKAGES = { zod: 'zod', valibot: '@valibot/to-json-schema' } as const;

/**
 * The JSON Schema of what a Standard Schema accepts (its input side: what the model must send), in
 * golem's canonical dialect. Taken, in order, from the schema's own Standard JSON Schema
 * (`~standard.jsonSchema`, zod ≥ 4.2, arktype ≥ 2.1.28), then the library's converter: zod 4's
 * `toJSONSchema`, valibot's `@valibot/to-json-schema` (an optional peer), arktype's
 * `toJsonSchema()`. Throws a `ConfigError` (component `schema`) naming the fix when none applies.
 *
 * ```ts
 * jsonSchemaOf(z.object({ city: z.string() }));
 * // { type: 'object', properties: { city: { type: 'string' } }, required: ['city'],
 * additionalProperties: false }
 * ```
 */
export function jsonSchemaOf(schema: StandardSchemaV1): JsonSchema {
  return deriveJsonSchema(schema, REQUIRE);
}

/** {@link jsonSchemaOf} with the converter packages loaded by `loaders`. Internal. */
export function deriveJsonSchema(schema: unknown, loaders: ConverterLoaders): JsonSchema {
  if (!isStandardSchema(schema)) {
    throw standardSchemaError(
      'unknown',
      'expected a Standard Schema (a zod, valibot or arktype schema with a `~standard` property), got ' +
        (schema === null ? 'null' : typeof schema),
    );
  }
  const vendor = vendorOf(schema);
  const generated = fromStandardJsonSchema(schema, vendor) ?? fromVendor(schema, vendor, loaders);
  if (!isRecord(generated)) {
    throw standardSchemaError(
      vendor,
      `the ${vendor} converter returned ${generated === null ? 'null' : typeof generated}, not a JSON Schema object; pass \`schema\` (a JSON Schema) beside the ${vendor} schema`,
    );
  }
  return canonicalJsonSchema(generated);
}

/** `~standard.jsonSchema.input(…)`, trying 2020-12 then draft-07; `undefined` when absent. */
function fromStandardJsonSchema(schema: StandardSchemaV1, vendor: string): unknown {
  const converter = safeGet(safeGet(schema, '~standard'), 'jsonSchema');
  const input = safeGet(converter, 'input');
  if (typeof input !== 'function') return undefined;
  let first: unknown;
  for (const target of ['draft-2020-12', 'draft-07']) {
    try {
      return (input as (options: { target: string }) => unknown).call(converter, { target });
    } catch (cause) {
      first ??= cause;
    }
  }
  throw cannotConvert(vendor, first);
}

function fromVendor(schema: StandardSchemaV1, vendor: string, loaders: ConverterLoaders): unknown {
  if (vendor === 'zod') return fromZod(schema, loaders);
  if (vendor === 'valibot') {
    const convert = safeGet(load('valibot', loaders), 'toJsonSchema');
    if (typeof convert !== 'function') throw oldPackage('valibot', 'toJsonSchema');
    return attempt(vendor, () =>
      (convert as (s: unknown, o: object) => unknown)(schema, {
        target: 'draft-2020-12',
        typeMode: 'input',
        // Custom checks say nothing about the shape (like zod's refinements, which zod skips).
        ignoreActions: VALIBOT_CHECKS,
      }),
    );
  }
  const own = safeGet(schema, 'toJsonSchema'); // arktype before Standard JSON Schema
  if (vendor === 'arktype' && typeof own === 'function')
    return attempt(vendor, () => (own as () => unknown).call(schema));
  throw standardSchemaError(
    vendor,
    `no JSON Schema can be derived from a ${vendor} schema (golem converts zod 4, valibot and arktype schemas, and any schema implementing Standard JSON Schema); pass \`schema\` (a JSON Schema) beside it`,
  );
}

function fromZod(schema: StandardSchemaV1, loaders: ConverterLoaders): unknown {
  if (!isObjectLike(safeGet(schema, '_zod'))) {
    throw standardSchemaError(
      'zod',
      'this is a zod 3 schema, which has no JSON Schema converter; use zod 4 (`import { z } from "zod"` with zod 4, or "zod/v4" with zod 3.25), or pass `schema` (a JSON Schema) beside it',
    );
  }
  const convert = safeGet(load('zod', loaders), 'toJSONSchema');
  if (typeof convert !== 'function') throw oldPackage('zod', 'toJSONSchema');
  return attempt('zod', () =>
    (convert as (s: unknown, o: object) => unknown)(schema, { io: 'input' }),
  );
}

function load(vendor: keyof ConverterLoaders, loaders: ConverterLoaders): unknown {
  try {
    return loaders[vendor]();
  } catch (cause) {
    throw notInstalled(vendor, cause);
  }
}

/** A missing module as the install hint (a `ConfigError`); any other failure unchanged. */
function notInstalled(vendor: keyof ConverterLoaders, cause: unknown): unknown {
  const code = safeGet(cause, 'code');
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return cause;
  const name = PACKAGES[vendor];
  return standardSchemaError(
    vendor,
    `converting a ${vendor} schema to JSON Schema needs the package ${name}, an optional peer dependency of golem: run \`npm install ${name}\` (or pass \`schema\`, a JSON Schema, beside the ${vendor} schema)`,
    { cause },
  );
}

function attempt(vendor: string, convert: () => unknown): unknown {
  try {
    return convert();
  } catch (cause) {
    throw cannotConvert(vendor, cause);
  }
}

function cannotConvert(vendor: string, cause: unknown): ConfigError {
  return standardSchemaError(
    vendor,
    `the ${vendor} schema cannot be converted to JSON Schema (${describeError(cause)}); simplify it, or pass \`schema\` (a JSON Schema) beside it`,
    { cause },
  );
}

function oldPackage(vendor: keyof ConverterLoaders, member: string): ConfigError {
  return standardSchemaError(
    vendor,
    `the installed ${PACKAGES[vendor]} has no ${member}; upgrade it (\`npm install ${PACKAGES[vendor]}@latest\`) or pass \`schema\` beside the ${vendor} schema`,
  );
}
