/**
 * Our overrides of class-validator-jsonschema's converters (validator → schema fragment), where
 * its defaults give schemas that are wrong, order-dependent or non-standard.
 */
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';
import type { SchemaObject } from 'openapi3-ts';
import { classValidator, memoised } from '../peers';
import { propertyTypeOf, type ValidationMetadata } from './metadata-sources';

/** The property's `design:type`, or, without decorator metadata, the type its validators state. */
function designType(meta: ValidationMetadata): unknown {
  if (typeof meta.target !== 'function') return undefined;
  return propertyTypeOf(meta.target, meta.propertyName).type;
}

/** The schema of a primitive `design:type`, or nothing. */
export function primitiveSchema(type: unknown): { type: string } | undefined {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  return undefined;
}

// openapi3-ts's SchemaObject lacks `contentEncoding` (a JSON Schema 2020-12 keyword).
const base64 = { type: 'string', contentEncoding: 'base64' } as unknown as SchemaObject;

const first = (meta: ValidationMetadata): unknown => meta.constraints[0];

/**
 * Built on first use (class-validator names the validators).
 *
 * - numeric bounds carry no `type` (the merge of `@IsInt` and `@Min` would otherwise depend on
 *   decorator order); the post-processor infers `number` when nothing else sets a type;
 * - `@IsDefined` adds nothing (required-ness is computed from the optional markers);
 * - custom validators describe only a primitive `design:type`, never `$ref: Object`;
 * - `@IsDateString` → `format: date-time`; `@IsUrl` → `format: uri`; `@IsBase64` →
 *   `contentEncoding: base64`; validators whose formats no JSON Schema validator knows give a
 *   plain string (the validator still enforces them);
 * - `@IsNotEmpty` gives `minLength: 1` on strings only (a `design:type` of `String`, or, without
 *   decorator metadata, an `@IsString()` beside it).
 */
export const converters: () => ISchemaConverters = memoised((): ISchemaConverters => {
  const cv = classValidator();
  return {
    [cv.ValidationTypes.CUSTOM_VALIDATION]: (meta) => primitiveSchema(designType(meta)) ?? {},
    [cv.ValidationTypes.IS_DEFINED]: {},
    [cv.MIN]: (meta) => ({ minimum: first(meta) as number }),
    [cv.MAX]: (meta) => ({ maximum: first(meta) as number }),
    [cv.IS_POSITIVE]: { exclusiveMinimum: 0 },
    [cv.IS_NEGATIVE]: { exclusiveMaximum: 0 },
    [cv.IS_DIVISIBLE_BY]: (meta) => ({ multipleOf: first(meta) as number }),
    [cv.IS_DATE_STRING]: { type: 'string', format: 'date-time' },
    [cv.IS_URL]: { type: 'string', format: 'uri' },
    [cv.IS_BASE64]: () => base64,
    [cv.IS_CREDIT_CARD]: { type: 'string' },
    [cv.IS_CURRENCY]: { type: 'string' },
    [cv.IS_ISBN]: { type: 'string' },
    [cv.IS_ISIN]: { type: 'string' },
    [cv.IS_JSON]: { type: 'string' },
    [cv.IS_MOBILE_PHONE]: { type: 'string' },
    [cv.IS_NOT_EMPTY]: (meta) => (designType(meta) === String ? { minLength: 1 } : {}),
  };
});
