import { ConfigError } from '../core/kit/config-error';

/** The kinds of PII the built-in detector finds. A plugged detector may report any kind. */
export type PiiKind = 'email' | 'phone' | 'credit_card' | 'iban' | 'us_ssn' | 'ipv4';

/** Every built-in kind, in priority order (an earlier kind wins an overlap). */
export const PII_KINDS: readonly PiiKind[] = Object.freeze([
  'email',
  'credit_card',
  'iban',
  'us_ssn',
  'ipv4',
  'phone',
]);

/** One piece of PII found in a text: `text.slice(start, end)` is it; `kind` names it. */
export interface PiiSpan {
  /** Index of its first UTF-16 code unit. */
  readonly start: number;
  /** Index just after its last code unit (`end > start`). */
  readonly end: number;
  /** What it is (`email`, `phone`, …, or a plugged detector's own kind such as `PERSON`). */
  readonly kind: string;
}

/**
 * Finds PII in a text. Plug Presidio, an NER model or a service: return the spans (any order,
 * overlaps allowed — the longest-first earliest span wins), synchronously or as a promise.
 */
export type PiiDetector = (text: string) => readonly PiiSpan[] | Promise<readonly PiiSpan[]>;

/** Options of {@link piiDetector}. */
export interface PiiDetectorOptions {
  /** The kinds to find; default all of {@link PII_KINDS}. */
  kinds?: readonly PiiKind[];
}

type Finder = (text: string) => PiiSpan[];

/** All matches of `pattern` (global) that `accept` keeps, as spans of `kind`. */
function finder(kind: PiiKind, pattern: RegExp, accept: (match: string) => boolean): Finder {
  return (text) => {
    const spans: PiiSpan[] = [];
    for (const match of text.matchAll(pattern))
      if (accept(match[0]))
        spans.push({ start: match.index, end: match.index + match[0].length, kind });
    return spans;
  };
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** Whether `digits` (digits only) passes the Luhn checksum of card numbers. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Whether `iban` (spaces allowed) is 15–34 characters that pass the ISO 13616 mod-97 check. */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const FINDERS: Readonly<Record<PiiKind, Finder>> = {
  email: finder(
    'email',
    /[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}/g,
    () => true,
  ),
  // 13–19 digits, single spaces or dashes between them, Luhn-checked; not all one digit.
  credit_card: finder('credit_card', /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, (match) => {
    const digits = digitsOf(match);
    return (
      digits.length >= 13 && digits.length <= 19 && !/^(\d)\1*$/.test(digits) && luhnValid(digits)
    );
  }),
  // Upper-case country code, check digits, then groups (printed with or without spaces).
  iban: finder('iban', /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, ibanValid),
  // Dashed only: a bare nine-digit number is too often something else.
  us_ssn: finder(
    'us_ssn',
    /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g,
    () => true,
  ),
  ipv4: finder(
    'ipv4',
    /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\d|\.\d)/g,
    () => true,
  ),
  // Formatted numbers only (a leading +, parentheses or separators): 8–15 digits with a +,
  // else 10–15. Bare digit runs (ids, timestamps) are not phone numbers.
  phone: finder(
    'phone',
    /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{1,5}){1,5}(?![\w-]|\.\d)|\+\d{8,15}(?!\w)/g,
    (match) => {
      const digits = digitsOf(match).length;
      return match.startsWith('+') ? digits >= 8 && digits <= 15 : digits >= 10 && digits <= 15;
    },
  ),
};

/**
 * The built-in detector, finding `kinds` (default all): e-mail addresses; credit-card numbers
 * (13–19 digits, spaces or dashes allowed, Luhn-checked); IBANs (mod-97-checked, upper case,
 * spaces allowed); US social security numbers (dashed `123-45-6789`, invalid areas excluded);
 * IPv4 addresses; phone numbers written with a `+`, parentheses or separators. Pattern-based:
 * names, addresses and free-form identifiers need a plugged detector (Presidio, an NER model).
 *
 * ```ts
 * redactPii({ detector: piiDetector({ kinds: ['email', 'phone'] }) });
 * ```
 */
export function piiDetector(options: PiiDetectorOptions = {}): (text: string) => PiiSpan[] {
  const kinds: unknown = options.kinds ?? PII_KINDS;
  if (!Array.isArray(kinds) || kinds.some((k) => !(PII_KINDS as readonly unknown[]).includes(k)))
    throw new ConfigError(`piiDetector: kinds must list some of ${PII_KINDS.join(', ')}`, {
      component: 'middleware',
      option: 'kinds',
    });
  const finders = PII_KINDS.filter((k) => (kinds as readonly unknown[]).includes(k)).map(
    (k) => FINDERS[k],
  );
  return (text) => resolveOverlaps(finders.flatMap((find) => find(text)));
}

/** The built-in detector with every kind (see {@link piiDetector}). */
export const detectPii: (text: string) => PiiSpan[] = piiDetector();

/**
 * Non-overlapping spans in text order: of overlapping spans the one starting first wins, then
 * the longer one, then the one listed first. Internal.
 */
export function resolveOverlaps(spans: readonly PiiSpan[]): PiiSpan[] {
  const ordered = spans
    .map((span, index) => ({ span, index }))
    .sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end || a.index - b.index);
  const kept: PiiSpan[] = [];
  let reached = 0;
  for (const { span } of ordered) {
    if (span.start < reached) continue;
    kept.push(span);
    reached = span.end;
  }
  return kept;
}
