import { sampleFromPattern } from './pattern-sample';
import { SchemaSampleError } from './schema-sample-error';
import { bound, type Schema } from './schema-node';

/** Samples a string schema: `format`, `pattern`, then length bounds. */
export function sampleString(schema: Schema, path: string, variant: number): string {
  const min = bound(schema, 'minLength', path) ?? 0;
  const max = bound(schema, 'maxLength', path) ?? Number.POSITIVE_INFINITY;
  if (min > max) throw new SchemaSampleError(path, `minLength ${min} exceeds maxLength ${max}`);
  const pattern = schema.pattern;
  if (pattern !== undefined && typeof pattern !== 'string')
    throw new SchemaSampleError(path, '"pattern" must be a string');
  const formatted =
    typeof schema.format === 'string' ? formatSample(schema.format, variant) : undefined;
  let value: string | undefined;
  if (formatted !== undefined) {
    value = formatted;
  } else if (pattern !== undefined) {
    value = sampleFromPattern(pattern, min, max);
    if (value === undefined) {
      throw new SchemaSampleError(
        path,
        `cannot generate a string matching pattern ${JSON.stringify(pattern)} within the length limits ` +
          '(only simple patterns are supported); add an "examples" entry to the schema',
      );
    }
  } else {
    value = variant === 0 ? 'a' : `a${variant}`;
    if (length(value) > max) value = String.fromCharCode(97 + (variant % 26));
    value = value.padEnd(min, 'a');
    if (length(value) > max) value = value.slice(0, max);
  }
  const size = length(value);
  if (size < min || size > max || (pattern !== undefined && !matches(pattern, value))) {
    throw new SchemaSampleError(
      path,
      `the ${formatted === undefined ? 'sample' : `"${String(schema.format)}" sample`} ${JSON.stringify(value)} ` +
        'violates the length or pattern constraints; add an "examples" entry to the schema',
    );
  }
  return value;
}

function formatSample(format: string, v: number): string | undefined {
  const day = String(1 + (v % 28)).padStart(2, '0');
  switch (format) {
    case 'date-time':
      return `2024-01-${day}T00:00:00Z`;
    case 'date':
      return `2024-01-${day}`;
    case 'time':
      return `00:${String(v % 60).padStart(2, '0')}:00Z`;
    case 'email':
    case 'idn-email':
      return v === 0 ? 'user@example.com' : `user${v}@example.com`;
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
      return v === 0 ? 'https://example.com/' : `https://example.com/${v}`;
    case 'uuid':
      return `00000000-0000-4000-8000-${v.toString(16).padStart(12, '0')}`;
    case 'hostname':
    case 'idn-hostname':
      return v === 0 ? 'example.com' : `host${v}.example.com`;
    case 'ipv4':
      return `192.0.2.${1 + (v % 254)}`;
    case 'ipv6':
      return `2001:db8::${(v + 1).toString(16)}`;
    default:
      return undefined;
  }
}

/** Length in code points, as JSON Schema counts it. */
function length(text: string): number {
  return Array.from(text).length;
}

function matches(pattern: string, value: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // try the next flag set
    }
  }
  return false;
}
