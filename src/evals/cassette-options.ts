import { ConfigError } from '../core/index';
import type { CassetteMode, CassetteOptions } from './experiment-types';

/** The environment variable that overrides every experiment's cassette mode. */
export const CASSETTE_MODE_ENV = 'GOLEM_EVAL_CASSETTES';

const MODES: readonly CassetteMode[] = ['auto', 'replay', 'record', 'off'];

/** An experiment's cassettes, resolved: where, and how (never `off`). */
export interface ResolvedCassettes {
  readonly dir: string;
  readonly mode: Exclude<CassetteMode, 'off'>;
  readonly match: 'strict' | 'order';
}

/**
 * The cassettes of an experiment's `cassettes` option, with `GOLEM_EVAL_CASSETTES` (when set)
 * overriding the mode; `undefined` when there are none or the mode is `off`. A mode outside
 * `auto`, `replay`, `record`, `off` is a `ConfigError`.
 */
export function resolveCassettes(
  option: string | CassetteOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedCassettes | undefined {
  if (option === undefined) return undefined;
  const options: CassetteOptions = typeof option === 'string' ? { dir: option } : option;
  const fromEnv = env[CASSETTE_MODE_ENV];
  let mode = options.mode ?? 'auto';
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!(MODES as readonly string[]).includes(fromEnv)) {
      throw new ConfigError(
        `${CASSETTE_MODE_ENV}=${fromEnv} is not a cassette mode: use ${MODES.join(', ')}`,
        { component: 'evals', option: CASSETTE_MODE_ENV },
      );
    }
    mode = fromEnv as CassetteMode;
  }
  if (mode === 'off') return undefined;
  return { dir: options.dir, mode, match: options.match ?? 'strict' };
}
