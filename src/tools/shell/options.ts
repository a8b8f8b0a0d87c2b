import { realpathSync, statSync } from 'node:fs';
import { showValue } from '../../core/kit/error-base';
import { isArrayValue, isRecord } from '../../core/kit/guards';
import { shellConfigError } from './errors';
import { commandNameProblem } from './policy';

/** Default timeout: 60 s. */
export const DEFAULT_TIMEOUT = 60_000;
/** Default output cap: 1 MiB. */
export const DEFAULT_MAX_BYTES = 1_048_576;
/** Largest timeout Node timers honour. */
const MAX_TIMER = 2_147_483_647;

/** Options of {@link shell}. */
export interface ShellOptions {
  /**
   * `'argv'` (default): run one program directly, without a shell. `'shell'`: run a command
   * list through `/bin/sh` after checking every command against `allow` (required then).
   */
  mode?: 'argv' | 'shell';
  /** Command names the model may run (exact match on the first word). Absent in argv mode: any program. */
  allow?: readonly string[];
  /** Working directory and confinement root for the `cwd` argument; default `process.cwd()`. */
  dir?: string;
  /** Extra child environment entries, `{ NAME: 'value' }` or `['NAME=value']`; added to the allow-listed ones. */
  env?: Readonly<Record<string, string>> | readonly string[];
  /** Per-command timeout in ms; 0 or absent → 60 s. Always on. */
  timeout?: number;
  /** Output cap in bytes (stdout and stderr together); 0 or absent → 1 MiB. */
  maxBytes?: number;
}

/** Validated options. Internal. */
export interface ResolvedShellOptions {
  mode: 'argv' | 'shell';
  allow: ReadonlySet<string> | undefined;
  /** Canonical working directory. */
  dir: string;
  env: Readonly<Record<string, string>>;
  timeout: number;
  maxBytes: number;
}

const KNOWN = ['mode', 'allow', 'dir', 'env', 'timeout', 'maxBytes'];

function number(option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) {
    throw shellConfigError(
      option,
      `\`${option}\` must be an integer from 0 (the default) to ${max}, got ${showValue(value)}`,
    );
  }
  return value === 0 ? fallback : value;
}

function resolveDir(dir: unknown): string {
  if (dir === undefined) return realpathSync(process.cwd());
  if (typeof dir !== 'string' || dir === '') {
    throw shellConfigError('dir', `\`dir\` must be a directory path, got ${showValue(dir)}`);
  }
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (cause) {
    throw shellConfigError(
      'dir',
      `\`dir\` ${JSON.stringify(dir)} does not exist (${(cause as Error).message})`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw shellConfigError('dir', `\`dir\` ${JSON.stringify(dir)} is not a directory`);
  }
  return real;
}

function envEntry(name: string, value: unknown): [string, string] {
  if (name === '' || name.includes('=') || name.includes('\0')) {
    throw shellConfigError('env', `\`env\` name ${JSON.stringify(name)} is not a valid name`);
  }
  if (typeof value !== 'string' || value.includes('\0')) {
    throw shellConfigError(
      'env',
      `\`env\` value of ${name} must be a string without NUL, got ${showValue(value)}`,
    );
  }
  return [name, value];
}

function resolveEnv(env: unknown): Record<string, string> {
  if (env === undefined) return {};
  if (isArrayValue(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = typeof entry === 'string' ? entry.indexOf('=') : -1;
        if (typeof entry !== 'string' || at <= 0) {
          throw shellConfigError(
            'env',
            `\`env\` entries must look like "NAME=value", got ${showValue(entry)}`,
          );
        }
        return envEntry(entry.slice(0, at), entry.slice(at + 1));
      }),
    );
  }
  if (!isRecord(env)) {
    throw shellConfigError(
      'env',
      `\`env\` must be an object of strings or an array of "NAME=value", got ${showValue(env)}`,
    );
  }
  return Object.fromEntries(Object.entries(env).map(([name, value]) => envEntry(name, value)));
}

function resolveAllow(allow: unknown, mode: 'argv' | 'shell'): ReadonlySet<string> | undefined {
  if (allow === undefined) {
    if (mode === 'shell') {
      throw shellConfigError(
        'allow',
        "mode 'shell' needs `allow`: the command names every chained command must be one of",
      );
    }
    return undefined;
  }
  if (!isArrayValue(allow) || allow.length === 0) {
    throw shellConfigError(
      'allow',
      `\`allow\` must be a non-empty array of command names, got ${showValue(allow)}`,
    );
  }
  for (const name of allow) {
    const problem =
      typeof name === 'string' ? commandNameProblem(name, undefined) : 'it is not a string';
    if (problem !== undefined) {
      throw shellConfigError(
        'allow',
        `\`allow\` entry ${showValue(name)} is not a plain command name: ${problem}`,
      );
    }
  }
  return new Set(allow as readonly string[]);
}

/** Validates {@link ShellOptions}; throws a `shell` `ConfigError` naming the option. */
export function resolveOptions(options: unknown): ResolvedShellOptions {
  if (options === undefined) options = {};
  if (!isRecord(options)) {
    throw shellConfigError('options', `pass an options object, got ${showValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) {
      throw shellConfigError(key, `unknown option \`${key}\`; known: ${KNOWN.join(', ')}`);
    }
  }
  const mode = options.mode ?? 'argv';
  if (mode !== 'argv' && mode !== 'shell') {
    throw shellConfigError('mode', `\`mode\` must be 'argv' or 'shell', got ${showValue(mode)}`);
  }
  if (mode === 'shell' && process.platform === 'win32') {
    throw shellConfigError('mode', "mode 'shell' needs a POSIX /bin/sh");
  }
  return {
    mode,
    allow: resolveAllow(options.allow, mode),
    timeout: number('timeout', options.timeout, DEFAULT_TIMEOUT, MAX_TIMER),
    maxBytes: number('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES, 2 ** 31),
    env: resolveEnv(options.env),
    dir: resolveDir(options.dir),
  };
}
