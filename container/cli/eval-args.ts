import { onlyOnce, readArgs, UsageError } from '../../decorators/cli/args';

export { UsageError };

/** The parsed command line of `golem eval`. */
export interface EvalArgs {
  /** The module file exporting the experiments. */
  readonly file: string;
  /** Run only this export (`--export`); default every exported experiment. */
  readonly exportName: string | undefined;
  /** Where to write the JSON report (`--json`). */
  readonly json: string | undefined;
  /** Where to write the HTML report (`--html`). */
  readonly html: string | undefined;
  /** A JSON report to compare against (`--baseline`). */
  readonly baseline: string | undefined;
  /** `--record` or `--replay`: the cassette mode for every experiment; default the experiment's. */
  readonly cassettes: 'record' | 'replay' | undefined;
  readonly concurrency: number | undefined;
  readonly repeat: number | undefined;
  /** Least pass rate, 0–1 (`--pass-rate`), over the experiment's own threshold. */
  readonly passRate: number | undefined;
  /** Most regressions against `--baseline` (`--max-regressions`). */
  readonly maxRegressions: number | undefined;
  /** Print one summary line per experiment instead of the full report. */
  readonly quiet: boolean;
  readonly help: boolean;
}

/** Usage text of `golem eval`. */
export const EVAL_USAGE = `usage: golem eval <file> [--export <name>] [--json <path>] [--html <path>]
                  [--baseline <report.json>] [--record | --replay] [--concurrency n]
                  [--repeat n] [--pass-rate x] [--max-regressions n] [--quiet]

Loads the file (.ts or .js), runs each experiment it exports (made with defineExperiment from
golem/evals), prints each report and checks it against the experiment's thresholds merged with
--pass-rate and --max-regressions (without any threshold: every run must pass).
Exit code: 0 thresholds met, 1 below them (each miss is printed), 2 usage error or a file that
does not load or exports no experiment.

  --export <name>        run only this export (default: every exported experiment)
  --json <path>          write the report as JSON (with several experiments: <path>.<name>.json)
  --html <path>          write the report as one self-contained HTML page
  --baseline <file>      compare with a JSON report written earlier by --json; prints the
                         comparison and counts regressions for --max-regressions
  --record               call the providers and record every case's cassette again
  --replay               replay cassettes only: a missing or changed cassette fails its case
  --concurrency <n>      case runs at once (default: the experiment's, else 4)
  --repeat <n>           runs per case (default: the experiment's, else 1)
  --pass-rate <x>        least share of passing runs, 0–1 (e.g. 0.9)
  --max-regressions <n>  most cases regressed against --baseline
  --quiet                one summary line per experiment (and the threshold misses)
  -h, --help             show this help`;

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${flag} must be a whole number of at least 1, got ${text}`);
  return value;
}

/** Parses `argv` (the arguments after `eval`). Throws {@link UsageError}. */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const positional: string[] = [];
  let exportName: string | undefined;
  let json: string | undefined;
  let html: string | undefined;
  let baseline: string | undefined;
  let cassettes: EvalArgs['cassettes'];
  let concurrency: number | undefined;
  let repeat: number | undefined;
  let passRate: number | undefined;
  let maxRegressions: number | undefined;
  let quiet = false as boolean; // set inside the readArgs callback
  let help = false as boolean;
  const path = (flag: string, current: string | undefined, value: () => string): string => {
    onlyOnce(flag, current);
    return value();
  };
  readArgs(argv, ({ arg, flag, inline, value }) => {
    const text = (): string => value({ dashes: false });
    switch (flag) {
      case '--export':
        exportName = path(flag, exportName, text).trim();
        break;
      case '--json':
        json = path(flag, json, text);
        break;
      case '--html':
        html = path(flag, html, text);
        break;
      case '--baseline':
        baseline = path(flag, baseline, text);
        break;
      case '--record':
      case '--replay': {
        if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
        const mode = flag === '--record' ? 'record' : 'replay';
        if (cassettes !== undefined && cassettes !== mode)
          throw new UsageError('--record and --replay exclude each other: give one');
        cassettes = mode;
        break;
      }
      case '--concurrency':
        onlyOnce(flag, concurrency);
        concurrency = positiveInteger(flag, value());
        break;
      case '--repeat':
        onlyOnce(flag, repeat);
        repeat = positiveInteger(flag, value());
        break;
      case '--pass-rate': {
        onlyOnce(flag, passRate);
        const given = value();
        passRate = Number(given);
        if (given.trim() === '' || !Number.isFinite(passRate) || passRate < 0 || passRate > 1)
          throw new UsageError(`--pass-rate must be a number from 0 to 1 (e.g. 0.9), got ${given}`);
        break;
      }
      case '--max-regressions': {
        onlyOnce(flag, maxRegressions);
        const given = value();
        maxRegressions = Number(given);
        if (!Number.isInteger(maxRegressions) || maxRegressions < 0)
          throw new UsageError(
            `--max-regressions must be a whole number (0 or more), got ${given}`,
          );
        break;
      }
      case '--quiet':
        if (inline !== undefined) throw new UsageError('--quiet takes no value');
        quiet = true;
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        if (arg.startsWith('-') && arg.length > 1) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  });
  const [file = '', ...extra] = positional;
  if (!help) {
    if (file === '') throw new UsageError('no file given (the module exporting the experiments)');
    if (extra.length > 0)
      throw new UsageError(
        `unexpected argument ${JSON.stringify(extra[0])}; give one file (use --export to pick an experiment)`,
      );
    if (maxRegressions !== undefined && baseline === undefined)
      throw new UsageError('--max-regressions needs --baseline <report.json> to compare with');
  }
  return {
    file,
    exportName,
    json,
    html,
    baseline,
    cassettes,
    concurrency,
    repeat,
    passRate,
    maxRegressions,
    quiet,
    help,
  };
}
