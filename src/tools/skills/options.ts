import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { isRecord } from '../../core/kit/guards';
import { showValue } from '../../core/kit/error-base';
import { skillsConfigError } from './errors';

/** Default cap on a skill body or a skill file: 1 MiB. */
export const DEFAULT_MAX_BYTES = 1_048_576;

/** Options of {@link skills} and {@link skillFile}. Give either `roots` or `root`. */
export interface SkillsOptions {
  /**
   * Absolute paths of the folders holding skills (`<root>/<name>/SKILL.md`), searched in order;
   * when two roots hold a skill of the same name, the first wins.
   */
  roots?: readonly string[];
  /** A single skills folder; shorthand for `roots: [root]`. */
  root?: string;
  /** Cap in bytes on a returned skill body or file (0 → 1 MiB); longer text is cut with a marker. */
  maxBytes?: number;
}

/** Validated options: canonical roots (symlinks resolved) and the effective cap. Internal. */
export interface ResolvedSkillsOptions {
  roots: readonly string[];
  maxBytes: number;
}

/** Validates options and canonicalises the roots. Never consults the cwd, home or environment. */
export function resolveSkillsOptions(options: unknown): ResolvedSkillsOptions {
  if (!isRecord(options)) {
    throw skillsConfigError('roots', 'is required: pass { roots: [absolute paths] }');
  }
  const { roots, root, maxBytes } = options as SkillsOptions;
  if (roots !== undefined && root !== undefined) {
    throw skillsConfigError('root', 'cannot be combined with `roots`; pass one of them');
  }
  const given: { option: string; path: unknown }[] = [];
  if (root !== undefined) {
    given.push({ option: 'root', path: root });
  } else if (roots !== undefined) {
    if (!Array.isArray(roots) || roots.length === 0) {
      throw skillsConfigError('roots', 'must be a non-empty array of absolute paths');
    }
    roots.forEach((path: unknown, i) => given.push({ option: `roots[${i}]`, path }));
  } else {
    throw skillsConfigError('roots', 'is required: pass { roots: [absolute paths] }');
  }
  return {
    roots: given.map(({ option, path }) => canonicalRoot(option, path)),
    maxBytes: resolveMaxBytes(maxBytes),
  };
}

function canonicalRoot(option: string, path: unknown): string {
  if (typeof path !== 'string' || path === '' || path.includes('\0')) {
    throw skillsConfigError(option, `must be an absolute path, got ${showValue(path)}`);
  }
  if (!isAbsolute(path)) {
    throw skillsConfigError(
      option,
      `must be an absolute path (relative paths and "~" are not resolved), got ${JSON.stringify(path)}`,
    );
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw skillsConfigError(option, `${JSON.stringify(path)} does not exist`);
  }
  if (!statSync(real).isDirectory()) {
    throw skillsConfigError(option, `${JSON.stringify(path)} is not a directory`);
  }
  return real;
}

function resolveMaxBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw skillsConfigError(
      'maxBytes',
      `must be a non-negative integer (0 = 1 MiB), got ${showValue(value)}`,
    );
  }
  return value === 0 ? DEFAULT_MAX_BYTES : value;
}
