import { showValue } from '../../core/kit/safe-inspect';

/** The longest value shown in an evaluator's reason, in characters. */
const MAX_PREVIEW = 80;

/**
 * A value as a reason shows it: JSON text (strings quoted), cut to `max` characters with `…`.
 * Never throws.
 */
export function preview(value: unknown, max = MAX_PREVIEW): string {
  const text = value === undefined ? 'undefined' : showValue(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Text of an output for text checks: a string as is, anything else as its JSON text (empty for
 * `undefined`). Never throws.
 */
export function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return showValue(value);
}
