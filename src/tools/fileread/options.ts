import { realpathSync, statSync } from 'node:fs';
import { showValue } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import { fileReadConfigError } from './errors';

/** Default byte cap: 1 MiB. */
export const DEFAULT_MAX_BYTES = 1_048_576;
/** Default line cap. */
export const DEFAULT_MAX_LINES = 2000;

/** Options of {@link fileRead}. */
export interface FileReadOptions {
  /** The workspace root. Must exist and be a directory; resolved through symbolic links once, at construction. */
  root: string;
  /** Most bytes returned per call (a non-negative integer; 0 or absent → 1 MiB). */
  maxBytes?: number;
  /** Most lines returned per call (a non-negative integer; 0 or absent → 2000). */
  maxLines?: number;
}

/** Validated options. Internal. */
export interface ResolvedFileReadOptions {
  /** Canonical (real) path of the root. */
  root: string;
  maxBytes: number;
  maxLines: number;
}

function cap(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw fileReadConfigError(
      option,
      `\`${option}\` must be a non-negative integer (0 for the default), got ${showValue(value)}`,
    );
  }
  return value === 0 ? fallback : value;
}

function canonicalRoot(root: unknown): string {
  if (typeof root !== 'string' || root === '') {
    throw fileReadConfigError(
      'root',
      `\`root\` must be the path of an existing directory, got ${showValue(root)}`,
    );
  }
  let real: string;
  try {
    real = realpathSync(root);
  } catch (cause) {
    throw fileReadConfigError(
      'root',
      `\`root\` ${JSON.stringify(root)} does not exist or cannot be resolved (${(cause as Error).message})`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw fileReadConfigError('root', `\`root\` ${JSON.stringify(root)} is not a directory`);
  }
  return real;
}

/** Validates {@link FileReadOptions}; throws a `fileread` `ConfigError` naming the option. */
export function resolveOptions(options: unknown): ResolvedFileReadOptions {
  if (!isRecord(options)) {
    throw fileReadConfigError(
      'root',
      'pass an options object with `root`, e.g. fileRead({ root: "./workspace" })',
    );
  }
  const known = ['root', 'maxBytes', 'maxLines'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw fileReadConfigError(key, `unknown option \`${key}\`; known: ${known.join(', ')}`);
    }
  }
  const maxBytes = cap('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
  const maxLines = cap('maxLines', options.maxLines, DEFAULT_MAX_LINES);
  return { root: canonicalRoot(options.root), maxBytes, maxLines };
}
