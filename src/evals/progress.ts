import type { ExperimentProgress } from './experiment-types';

/** Reports an experiment's progress after each finished case run. */
export interface ProgressReporter {
  /** One more case run finished. */
  update(progress: ExperimentProgress): void;
  /** The experiment is over (ends the bar's line). */
  finish(): void;
}

const NONE: ProgressReporter = { update: () => undefined, finish: () => undefined };
const BAR_WIDTH = 24;

/** Where the bar is drawn; `process.stderr` by default. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * The reporter of an experiment's `progress` option: a function is called per case run (its
 * throws are ignored); `true` draws a one-line bar on `stream` only when it is a terminal;
 * anything else reports nothing.
 */
export function progressReporter(
  option: boolean | ((progress: ExperimentProgress) => void) | undefined,
  stream: ProgressStream = process.stderr,
): ProgressReporter {
  if (typeof option === 'function') {
    return {
      update(progress) {
        try {
          option(progress);
        } catch {
          // Progress is advisory: a failing callback never fails the experiment.
        }
      },
      finish: () => undefined,
    };
  }
  if (option !== true || stream.isTTY !== true) return NONE;
  let drawn = false;
  return {
    update(progress) {
      drawn = true;
      stream.write(`\r${progressLine(progress)}\x1b[K`);
    },
    finish() {
      if (drawn) stream.write('\n');
    },
  };
}

/** The bar's text: `[#####-----] 5/10 passed 4 failed 1 case-name`. */
export function progressLine(progress: ExperimentProgress): string {
  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
  const name =
    progress.caseName.length > 40 ? `${progress.caseName.slice(0, 39)}…` : progress.caseName;
  return `[${bar}] ${progress.done}/${progress.total} passed ${progress.passed} failed ${progress.failed} ${name}`;
}
