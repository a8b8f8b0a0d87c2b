import { realpathSync, statSync } from 'node:fs';
import { showValue } from '../../core/kit/error-base';
import { isRecord } from '../../core/kit/guards';
import { FileReadConfigError } from './errors';

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
    throw new FileReadConfigError(
      option,
      `\`${option}\` must be a non-negative integer (0 for the default), got ${showValue(value)}`,
    );
  }
  return value === 0 ? fallback : value;
}

function canonicalRoot(root: unknown): string {
  if (typeof root !== 'string' || root === '') {
    throw new FileReadConfigError(
      'root',
      `\`root\` must be the path of an existing directory, got ${showValue(root)}`,
    );
  }
  let real: string;
  try {
    real = realpathSync(root);
  } catch (cause) {
    throw new FileReadConfigError(
      'root',
      `\`root\` ${JSON.stringify(root)} does not exist or cannot be resolved (${(cause as Error).message})`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new FileReadConfigError('root', `\`root\` ${JSON.stringify(root)} is not a directory`);
  }
  return real;
}

/** Validates {@link FileReadOptions}; throws {@link FileReadConfigError} naming the option. */
export function resolveOptions(options: unknown): ResolvedFileReadOptions {
  if (!isRecord(options)) {
    throw new FileReadConfigError(
      'root',
      'pass an options object with `root`, e.g. fileRead({ root: "./workspace" })',
    );
  }
  const known = ['root', 'maxBytes', 'maxLines'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new FileReadConfigError(key, `unknown option \`${key}\`; known: ${known.join(', ')}`);
    }
  }
  const maxBytes = cap('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
  const maxLines = cap('maxLines', options.maxLines, DEFAULT_MAX_LINES);
  return { root: canonicalRoot(options.root), maxBytes, maxLines };
}
