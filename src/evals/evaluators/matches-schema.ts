import type { JsonSchema, StandardSchemaV1 } from '../../core/index';
import { isModuleNotFound, missingPeerError } from '../../core/kit/missing-peer';
import type { Evaluator } from '../evaluator';
import { evaluatorConfigError, evaluatorName, type NamedOptions } from './options';

/** The most issues a reason lists. */
const MAX_ISSUES = 3;

/** One problem found: where (`$.days[0].high`) and what. */
interface Issue {
  readonly path: string;
  readonly message: string;
}

/** Validates a value; resolves to its issues (none: valid). */
type Check = (value: unknown) => Promise<readonly Issue[]>;

/** What an ajv validate function looks like (ajv is an optional peer: no type import). */
interface AjvValidate {
  (value: unknown): boolean;
  errors?:
    | readonly {
        instancePath?: string;
        message?: string;
        params?: Record<string, unknown>;
      }[]
    | null;
}

interface AjvInstance {
  compile(schema: unknown): AjvValidate;
}

type AjvClass = new (options: Record<string, unknown>) => AjvInstance;

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

function renderPath(keys: readonly PropertyKey[]): string {
  let path = '$';
  for (const key of keys) {
    if (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key))) {
      path += `[${String(key)}]`;
    } else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) {
      path += `.${key}`;
    } else {
      path += `[${typeof key === 'symbol' ? String(key) : JSON.stringify(key)}]`;
    }
  }
  return path;
}

function standardCheck(schema: StandardSchemaV1): Check {
  return async (value) => {
    const result = await schema['~standard'].validate(value);
    if (result.issues === undefined) return [];
    return result.issues.map((issue) => ({
      path: renderPath(
        (issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment)),
      ),
      message: issue.message,
    }));
  };
}

/** Loads ajv's class for the schema's dialect (2020-12, 2019-09, else draft-07). */
function loadAjv(schema: JsonSchema): AjvClass {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  let loaded: unknown;
  try {
    // Literal requires, so bundlers see the optional peer.
    /* eslint-disable @typescript-eslint/no-require-imports */
    if (dialect.includes('2020-12')) loaded = require('ajv/dist/2020');
    else if (dialect.includes('2019-09')) loaded = require('ajv/dist/2019');
    else loaded = require('ajv');
    /* eslint-enable @typescript-eslint/no-require-imports */
  } catch (error) {
    if (isModuleNotFound(error)) throw missingPeerError('golem/evals', ['ajv']);
    throw error;
  }
  const candidate = (loaded as { default?: unknown }).default ?? loaded;
  return candidate as AjvClass;
}

function jsonSchemaCheck(schema: JsonSchema): Check {
  const Ajv = loadAjv(schema);
  let validate: AjvValidate;
  try {
    validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  } catch (cause) {
    throw evaluatorConfigError(
      `matchesSchema: the JSON Schema does not compile (${cause instanceof Error ? cause.message : String(cause)}); fix the schema`,
      'schema',
    );
  }
  return (value) => {
    if (validate(value)) return Promise.resolve([]);
    const issues = (validate.errors ?? []).map((error) => {
      const keys = (error.instancePath ?? '')
        .split('/')
        .slice(1)
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      const extra = error.params?.additionalProperty;
      const suffix = typeof extra === 'string' ? ` (${extra})` : '';
      return { path: renderPath(keys), message: `${error.message ?? 'is invalid'}${suffix}` };
    });
    return Promise.resolve(issues);
  };
}

/**
 * Passes when the output validates against `schema`: a Standard Schema (zod, valibot, arktype:
 * its `~standard.validate`) or a JSON Schema object, validated with `ajv` (an optional peer,
 * loaded on first use: without it this throws a `ConfigError` of reason `missing-peer`; the
 * `$schema` picks the dialect: 2020-12, 2019-09, else draft-07). The reason lists up to three
 * issues as `path: message`.
 */
export function matchesSchema(
  schema: StandardSchemaV1 | JsonSchema,
  options: NamedOptions = {},
): Evaluator {
  const name = evaluatorName(options.name, 'matchesSchema');
  const given: unknown = schema;
  let check: Check;
  if (isStandardSchema(given)) check = standardCheck(given);
  else if (typeof given === 'object' && given !== null && !Array.isArray(given)) {
    check = jsonSchemaCheck(given as JsonSchema);
  } else {
    throw evaluatorConfigError(
      'matchesSchema: pass a Standard Schema (zod, valibot, arktype) or a JSON Schema object',
      'schema',
    );
  }
  return {
    name,
    evaluate: async (ctx) => {
      const issues = await check(ctx.output);
      if (issues.length === 0) return { pass: true, reason: 'output matches the schema' };
      const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${issue.path}: ${issue.message}`);
      const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : '';
      return {
        pass: false,
        reason: `output does not match the schema: ${shown.join('; ')}${more}`,
      };
    },
  };
}
