import type { Evaluator } from '../evaluator';
import { evaluatorConfigError, evaluatorName, type NamedOptions } from './options';
import { outputText, preview } from './preview';

/** What {@link contains} looks for: a text, a pattern, or a list of them. */
export type Needle = string | RegExp;

/** Options of {@link contains}. */
export interface ContainsOptions extends NamedOptions {
  /** Match case exactly (default `true`); `false` also makes patterns case-insensitive. */
  readonly caseSensitive?: boolean;
  /**
   * With several needles: `true` (default) passes only when every one is found; `false` passes
   * when any is. The score is the share found either way.
   */
  readonly all?: boolean;
}

function isNeedle(value: unknown): value is Needle {
  return typeof value === 'string' || value instanceof RegExp;
}

function toNeedles(value: unknown): Needle[] | undefined {
  if (isNeedle(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isNeedle)) return [...value];
  return undefined;
}

function matcher(needle: Needle, caseSensitive: boolean): (text: string) => boolean {
  if (typeof needle === 'string') {
    if (caseSensitive) return (text) => text.includes(needle);
    const lower = needle.toLowerCase();
    return (text) => text.toLowerCase().includes(lower);
  }
  // Without `g`/`y`, `test` keeps no state between calls.
  let flags = needle.flags.replace(/[gy]/g, '');
  if (!caseSensitive && !flags.includes('i')) flags += 'i';
  const pattern = new RegExp(needle.source, flags);
  return (text) => pattern.test(text);
}

function show(needle: Needle): string {
  return typeof needle === 'string' ? preview(needle, 40) : String(needle);
}

/**
 * Passes when the output contains `needle` — a string, a RegExp, or a list of them (default: the
 * case's `expected`, a string or a list of strings). A non-string output is searched as its JSON
 * text. The score is the share of needles found; `all` (default `true`) decides whether every
 * needle or any one must be found. The reason lists the needles missing.
 */
export function contains(
  needle?: Needle | readonly Needle[],
  options: ContainsOptions = {},
): Evaluator {
  const name = evaluatorName(options.name, 'contains');
  const caseSensitive = options.caseSensitive ?? true;
  const all = options.all ?? true;
  const given = needle === undefined ? undefined : toNeedles(needle);
  if (needle !== undefined && given === undefined) {
    throw evaluatorConfigError(
      `contains: needle must be a string, a RegExp or a non-empty list of them, got ${preview(needle)}`,
      'needle',
    );
  }
  return {
    name,
    evaluate: (ctx) => {
      const needles = given ?? toNeedles(ctx.expected);
      if (needles === undefined) {
        throw new Error(
          `contains: case '${ctx.case.name}' has no string expected value (found ${preview(ctx.expected)}); ` +
            'set the case expected to a string or pass contains(needle)',
        );
      }
      const text = outputText(ctx.output);
      const missing = needles.filter((each) => !matcher(each, caseSensitive)(text));
      const found = needles.length - missing.length;
      const score = found / needles.length;
      const pass = all ? missing.length === 0 : found > 0;
      if (missing.length === 0) {
        return { pass, score, reason: `found ${needles.map(show).join(', ')}` };
      }
      const what = missing.map(show).join(', ');
      return {
        pass,
        score,
        reason: `expected output to contain ${what}; not found in ${preview(text, 60)}`,
      };
    },
  };
}
