import { SchemaSampleError } from './schema-sample-error';
import { finite, type Schema } from './schema-node';

interface Limit {
  value: number;
  exclusive: boolean;
}

/** Samples a number or integer schema: bounds (both draft forms) and `multipleOf`. */
export function sampleNumber(
  schema: Schema,
  path: string,
  integer: boolean,
  variant: number,
): number {
  const lower = limit(schema, 'minimum', 'exclusiveMinimum', path, true);
  const upper = limit(schema, 'maximum', 'exclusiveMaximum', path, false);
  const multipleOf = finite(schema, 'multipleOf', path);
  if (multipleOf !== undefined && multipleOf <= 0)
    throw new SchemaSampleError(path, '"multipleOf" must be positive');
  const step =
    multipleOf === undefined
      ? integer
        ? 1
        : undefined
      : integer
        ? integerStep(multipleOf, path)
        : multipleOf;
  let value: number;
  const fromUpper =
    lower === undefined &&
    upper !== undefined &&
    (upper.value < 0 || (upper.value === 0 && upper.exclusive));
  if (step !== undefined) {
    let k: number;
    if (lower !== undefined) {
      k = Math.ceil(snap(lower.value / step));
      if (lower.exclusive && tidy(k * step) <= lower.value) k++;
    } else if (fromUpper) {
      k = Math.floor(snap(upper.value / step));
      if (upper.exclusive && tidy(k * step) >= upper.value) k--;
    } else {
      k = 0;
    }
    k = fromUpper ? k - variant : k + variant;
    value = tidy(k * step);
    // Tidying may cross a bound by a rounding error; the next multiple inwards is then valid.
    if (!within(value, lower, upper)) value = tidy((fromUpper ? k - 1 : k + 1) * step);
  } else if (lower !== undefined) {
    value = lower.exclusive ? lower.value + 1 : lower.value;
    if (upper !== undefined && !within(value, lower, upper))
      value = (lower.value + upper.value) / 2;
    value += variant;
  } else if (fromUpper) {
    value = (upper.exclusive ? upper.value - 1 : upper.value) - variant;
  } else {
    value = variant;
  }
  if (Object.is(value, -0)) value = 0;
  if (!within(value, lower, upper)) {
    throw new SchemaSampleError(
      path,
      `no ${integer ? 'integer' : 'number'}${multipleOf === undefined ? '' : ` multiple of ${multipleOf}`} satisfies the bounds`,
    );
  }
  return value;
}

function limit(
  schema: Schema,
  inclusiveKey: string,
  exclusiveKey: string,
  path: string,
  isLower: boolean,
): Limit | undefined {
  const inclusive = finite(schema, inclusiveKey, path);
  const rawExclusive = schema[exclusiveKey];
  if (rawExclusive === true)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: true };
  const exclusive = rawExclusive === false ? undefined : finite(schema, exclusiveKey, path);
  if (exclusive === undefined)
    return inclusive === undefined ? undefined : { value: inclusive, exclusive: false };
  if (inclusive === undefined) return { value: exclusive, exclusive: true };
  const exclusiveTighter = isLower ? exclusive >= inclusive : exclusive <= inclusive;
  return exclusiveTighter
    ? { value: exclusive, exclusive: true }
    : { value: inclusive, exclusive: false };
}

function within(value: number, lower: Limit | undefined, upper: Limit | undefined): boolean {
  if (lower !== undefined && (lower.exclusive ? value <= lower.value : value < lower.value))
    return false;
  if (upper !== undefined && (upper.exclusive ? value >= upper.value : value > upper.value))
    return false;
  return Number.isFinite(value);
}

/** The smallest positive multiple of `m` that is an integer. */
function integerStep(m: number, path: string): number {
  const places = decimals(m);
  if (places === 0) return m;
  const scale = 10 ** places;
  const scaled = Math.round(m * scale);
  const step = scaled / gcd(scaled, scale);
  if (!Number.isSafeInteger(step))
    throw new SchemaSampleError(path, `no integer is a multiple of ${m}`);
  return step;
}

function decimals(n: number): number {
  const [mantissa = '', exponent = '0'] = String(n).split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Removes binary floating-point noise from a non-integer (`0.30000000000000004` → `0.3`). */
function tidy(n: number): number {
  return Number.isInteger(n) ? n : Number(n.toPrecision(15));
}

function snap(ratio: number): number {
  const nearest = Math.round(ratio);
  return Math.abs(ratio - nearest) < 1e-9 ? nearest : ratio;
}

export function isMultiple(n: number, m: number): boolean {
  return Math.abs(snap(n / m) - Math.round(n / m)) === 0;
}
