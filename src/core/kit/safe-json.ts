import { GolemError, brandGuard } from './error-base';

/**
 * Limits applied when parsing untrusted JSON.
 * @inline
 */
export interface JsonLimits {
  /** Largest accepted text, in UTF-16 code units. Default 4 MiB. */
  maxLength?: number;
  /** Deepest accepted nesting of arrays and objects. Default 256. */
  maxDepth?: number;
}

/** Untrusted JSON was malformed, too large, too deep, or carried a prototype-polluting key. */
export class UnsafeJsonError extends GolemError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('UnsafeJsonError', message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsafeJsonError>('UnsafeJsonError');
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses untrusted JSON defensively: bounded size and depth, and objects carrying `__proto__`,
 * `constructor` or `prototype` keys are rejected rather than materialised.
 */
export function parseUntrustedJson(text: string, limits: JsonLimits = {}): unknown {
  const maxLength = limits.maxLength ?? 4 * 1024 * 1024;
  const maxDepth = limits.maxDepth ?? 256;
  if (text.length > maxLength)
    throw new UnsafeJsonError(`JSON text is ${text.length} characters; the limit is ${maxLength}`);
  // A text no longer than the limit cannot nest deeper than it (each level takes a character).
  const depth = text.length <= maxDepth ? 0 : nestingDepth(text);
  if (depth > maxDepth)
    throw new UnsafeJsonError(`JSON nesting depth ${depth} exceeds the limit of ${maxDepth}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new UnsafeJsonError(`not valid JSON: ${(cause as Error).message}`, { cause });
  }
  if (mayHoldForbiddenKey(text)) assertNoForbiddenKeys(parsed);
  return parsed;
}

/**
 * Whether a key of `text` could be one of {@link FORBIDDEN_KEYS}: only if the text spells one
 * (`proto` covers `__proto__` and `prototype`) or has a `\u` escape, the one JSON escape that can
 * produce a letter or `_`. Most argument texts do neither, and skip the walk of the parsed value.
 */
function mayHoldForbiddenKey(text: string): boolean {
  return text.includes('proto') || text.includes('constructor') || text.includes('\\u');
}

/** Maximum bracket nesting of a JSON text, ignoring brackets inside strings. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

function assertNoForbiddenKeys(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    for (const key of Object.keys(current)) {
      if (FORBIDDEN_KEYS.has(key))
        throw new UnsafeJsonError(`JSON object key "${key}" is not allowed`);
      stack.push((current as Record<string, unknown>)[key]);
    }
  }
}

/** Whether `text` is syntactically valid JSON. */
export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
