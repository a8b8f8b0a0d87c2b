/**
 * `golem eval <file> [--export <name>] [--json <path>] [--html <path>] [--baseline <report.json>]
 * [--record | --replay] …`: loads a module, runs each experiment it exports (`defineExperiment`
 * of `golem/evals`), prints each report (and its comparison with a baseline), writes the JSON and
 * HTML reports and exits 1 when a report is below its thresholds. The bin (`bin/golem.js`) calls
 * {@link main}; tests call {@link evalCommand}.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ConfigError } from '../../src/core/index';
import {
  checkThresholds,
  compareReports,
  EvalError,
  formatComparison,
  formatReport,
  readReport,
  writeReport,
  type CassetteOptions,
  type Comparison,
  type Experiment,
  type ExperimentOptions,
  type ExperimentReport,
  type ThresholdCheck,
  type Thresholds,
} from '../../src/evals/index';
import type { ResolveEnvironment } from '../../src/providers/resolve/index';
import { defaultLoader, type ModuleLoader } from '../../decorators/cli/load-modules';
import { failureText } from './failure';
import { EVAL_USAGE, parseEvalArgs, UsageError, type EvalArgs } from './eval-args';

/** Where the command writes, what it reads and loads with; every field has a default. */
export interface EvalIO {
  /** Receives each line of normal output; default `process.stdout`. */
  stdout?: (line: string) => void;
  /** Receives each line of error output; default `process.stderr`. */
  stderr?: (line: string) => void;
  /** Resolves the file and the paths of the options; default `process.cwd()`. */
  cwd?: string;
  /** Whose secret-looking values are redacted from printed errors; default `process.env`. */
  env?: ResolveEnvironment;
  /** Loads the module; default `require` (with a TypeScript hook for `.ts` files). */
  load?: ModuleLoader;
  /** Colour the report; default: when stdout is a terminal and `NO_COLOR` is unset. */
  color?: boolean;
}

/** Exit codes: 0 thresholds met, 1 below them (or an experiment failed), 2 usage or setup errors. */
export const EVAL_EXIT = Object.freeze({ ok: 0, below: 1, usage: 2 });

/** An exported experiment and the name it is exported under. */
interface FoundExperiment {
  readonly exportName: string;
  readonly experiment: Experiment;
}

/** A value made by `defineExperiment` (of any copy of golem): `options` and a `run` function. */
function isExperiment(value: unknown): value is Experiment {
  if (typeof value !== 'object' || value === null) return false;
  const { options, run } = value as { options?: unknown; run?: unknown };
  return typeof options === 'object' && options !== null && typeof run === 'function';
}

function exportsOf(loaded: unknown): Record<string, unknown> {
  return (typeof loaded === 'object' || typeof loaded === 'function') && loaded !== null
    ? (loaded as Record<string, unknown>)
    : {};
}

/**
 * The experiments of a loaded module, in export order (one value exported twice counts once):
 * `exportName` alone when given. `import()` of a CommonJS module nests its exports under
 * `default`; they are looked at too. Throws {@link UsageError} naming the exports when none fits.
 */
export function findExperiments(
  loaded: unknown,
  exportName: string | undefined,
  file: string,
): FoundExperiment[] {
  const entries = Object.entries(exportsOf(loaded));
  const inner = exportsOf(exportsOf(loaded).default);
  if (!isExperiment(inner))
    for (const entry of Object.entries(inner))
      if (!entries.some(([name]) => name === entry[0])) entries.push(entry);
  const names = entries.map(([name]) => name).filter((name) => name !== '__esModule');
  if (exportName !== undefined) {
    const entry = entries.find(([name]) => name === exportName);
    if (entry === undefined)
      throw new UsageError(
        `${file} exports no ${JSON.stringify(exportName)}; ${listing(entries, names)}`,
      );
    if (!isExperiment(entry[1]))
      throw new UsageError(
        `${file}: the export ${JSON.stringify(exportName)} is not an experiment; export the value defineExperiment({ … }) returns`,
      );
    return [{ exportName, experiment: entry[1] }];
  }
  const found: FoundExperiment[] = [];
  for (const [name, value] of entries)
    if (isExperiment(value) && !found.some((f) => f.experiment === value))
      found.push({ exportName: name, experiment: value });
  if (found.length === 0)
    throw new UsageError(
      `${file} exports no experiment; export the value of defineExperiment({ name, dataset, task, … }) (its exports: ${names.length === 0 ? 'none' : names.join(', ')})`,
    );
  return found;
}

function listing(entries: readonly [string, unknown][], names: readonly string[]): string {
  const experiments = entries.filter(([, value]) => isExperiment(value)).map(([name]) => name);
  return experiments.length > 0
    ? `its experiments: ${experiments.join(', ')}`
    : `it exports no experiment (its exports: ${names.length === 0 ? 'none' : names.join(', ')})`;
}

/** The options of any experiment, as `golem eval` sees them. */
type AnyOptions = ExperimentOptions<unknown, unknown>;

/**
 * `cassettes` with `mode`; an experiment without cassettes cannot record or replay (`several`:
 * the file exports others, which `--export` can pick).
 */
function withMode(
  cassettes: AnyOptions['cassettes'],
  mode: 'record' | 'replay',
  name: string,
  several: boolean,
): CassetteOptions {
  if (cassettes === undefined)
    throw new UsageError(
      `--${mode}: the experiment ${JSON.stringify(name)} keeps no cassettes; give it cassettes: './cassettes' in defineExperiment${several ? ', or pick the experiments that keep some with --export' : ''}`,
    );
  return typeof cassettes === 'string' ? { dir: cassettes, mode } : { ...cassettes, mode };
}

/** The options the command line overrides for one experiment. */
function overridesOf(args: EvalArgs, options: AnyOptions, several: boolean): Partial<AnyOptions> {
  const overrides: { -readonly [K in keyof AnyOptions]?: AnyOptions[K] } = {};
  if (args.cassettes !== undefined)
    overrides.cassettes = withMode(options.cassettes, args.cassettes, options.name, several);
  if (args.concurrency !== undefined) overrides.concurrency = args.concurrency;
  if (args.repeat !== undefined) overrides.repeat = args.repeat;
  if (!args.quiet && options.progress === undefined) overrides.progress = true;
  return overrides;
}

/**
 * The experiment's thresholds with the command line's over them; none at all means every run
 * must pass (`passRate: 1`).
 */
export function thresholdsOf(experiment: Experiment, args: EvalArgs): Thresholds {
  const merged: Thresholds = {
    ...experiment.thresholds,
    ...(args.passRate !== undefined && { passRate: args.passRate }),
    ...(args.maxRegressions !== undefined && { maxRegressions: args.maxRegressions }),
  };
  return Object.values(merged).some((value) => value !== undefined) ? merged : { passRate: 1 };
}

/** `path` for one of several experiments: `report.json` → `report.<name>.json`. */
function pathFor(path: string, name: string, several: boolean): string {
  if (!several) return path;
  const extension = extname(path);
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return join(dirname(path), `${basename(path, extension)}.${safe}${extension}`);
}

function percent(share: number): string {
  return `${String(Math.round(share * 1000) / 10)}%`;
}

/** One line of a report, for `--quiet`. */
function summaryLine(report: ExperimentReport): string {
  const { passed, runs, passRate, meanScore, replayed } = report.summary;
  const replay = replayed > 0 ? `, ${String(replayed)} replayed` : '';
  return `${report.name}: ${String(passed)}/${String(runs)} runs passed (${percent(passRate)}), mean score ${meanScore.toFixed(2)}${replay}`;
}

/** A failure of setup (the file's configuration) rather than of the experiment's cases. */
function isSetupError(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    ConfigError.is(error) ||
    EvalError.isKind(error, 'dataset') ||
    EvalError.isKind(error, 'report')
  );
}

/** Runs the command with `argv` (the arguments after `eval`) and returns the exit code. */
export async function evalCommand(argv: readonly string[], io: EvalIO = {}): Promise<number> {
  const out = io.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env = io.env ?? process.env;
  const color =
    io.color ?? (io.stdout === undefined && process.stdout.isTTY && env.NO_COLOR === undefined);
  const columns = io.stdout === undefined ? process.stdout.columns : undefined;
  const layout = { color, ...(columns !== undefined && columns > 0 && { width: columns }) };
  const fail = (error: unknown): string => `golem eval: ${failureText(error, env)}`;
  let args: EvalArgs;
  try {
    args = parseEvalArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`golem eval: ${error.message}`);
    err(EVAL_USAGE);
    return EVAL_EXIT.usage;
  }
  if (args.help) {
    out(EVAL_USAGE);
    return EVAL_EXIT.ok;
  }
  // The experiments read the mode override from the process environment, over their options.
  const fromEnv = process.env.GOLEM_EVAL_CASSETTES;
  if (
    args.cassettes !== undefined &&
    fromEnv !== undefined &&
    fromEnv !== '' &&
    fromEnv !== args.cassettes
  ) {
    err(
      `golem eval: --${args.cassettes} conflicts with GOLEM_EVAL_CASSETTES=${fromEnv}, which would override it; unset the variable or drop the flag`,
    );
    return EVAL_EXIT.usage;
  }
  const cwd = io.cwd ?? process.cwd();
  const file = resolve(cwd, args.file);
  if (!existsSync(file)) {
    err(
      `golem eval: no such file: ${file}; give the path of the module that exports the experiments`,
    );
    return EVAL_EXIT.usage;
  }
  let baseline: ExperimentReport | undefined;
  if (args.baseline !== undefined) {
    const path = resolve(cwd, args.baseline);
    if (!existsSync(path)) {
      err(
        `golem eval: no baseline report at ${path}; write one first with --json ${args.baseline}`,
      );
      return EVAL_EXIT.usage;
    }
    try {
      baseline = await readReport(path);
    } catch (error) {
      err(fail(error));
      return EVAL_EXIT.usage;
    }
  }
  let runs: { found: FoundExperiment; overrides: Partial<AnyOptions> }[];
  try {
    const loaded = await (io.load ?? defaultLoader(cwd))(file);
    const found = findExperiments(loaded, args.exportName, file);
    runs = found.map((one) => ({
      found: one,
      overrides: overridesOf(args, one.experiment.options, found.length > 1),
    }));
  } catch (error) {
    err(fail(error));
    return EVAL_EXIT.usage;
  }
  const several = runs.length > 1;
  let exit: number = EVAL_EXIT.ok;
  for (const [index, { found, overrides }] of runs.entries()) {
    if (index > 0) out('');
    const code = await runOne(found, overrides);
    exit = Math.max(exit, code);
  }
  return exit;

  async function runOne(
    { experiment }: FoundExperiment,
    overrides: Partial<AnyOptions>,
  ): Promise<number> {
    const name = experiment.options.name;
    let report: ExperimentReport;
    try {
      report = await experiment.run(overrides);
    } catch (error) {
      err(`golem eval: the experiment ${JSON.stringify(name)} failed: ${failureText(error, env)}`);
      return isSetupError(error) ? EVAL_EXIT.usage : EVAL_EXIT.below;
    }
    const comparison: Comparison | undefined =
      baseline === undefined ? undefined : compareReports(baseline, report);
    if (args.quiet) {
      out(summaryLine(report));
      if (comparison !== undefined)
        out(
          `  vs ${comparison.baseline}: ${String(comparison.regressions)} regressed, ${String(comparison.improvements)} improved`,
        );
    } else {
      out(formatReport(report, layout));
      if (comparison !== undefined) {
        out('');
        out(formatComparison(comparison, layout));
      }
    }
    if (args.json !== undefined || args.html !== undefined) {
      const json =
        args.json === undefined ? undefined : resolve(cwd, pathFor(args.json, name, several));
      const html =
        args.html === undefined ? undefined : resolve(cwd, pathFor(args.html, name, several));
      try {
        await writeReport(report, {
          ...(json !== undefined && { json }),
          ...(html !== undefined && { html }),
          ...(comparison !== undefined && { comparison }),
        });
      } catch (error) {
        err(
          `golem eval: could not write the report of ${JSON.stringify(name)}: ${failureText(error, env)}`,
        );
        return EVAL_EXIT.usage;
      }
      if (json !== undefined) out(`wrote ${json}`);
      if (html !== undefined) out(`wrote ${html}`);
    }
    let check: ThresholdCheck;
    try {
      check = checkThresholds(report, thresholdsOf(experiment, args), comparison);
    } catch (error) {
      err(`golem eval: the thresholds of ${JSON.stringify(name)}: ${failureText(error, env)}`);
      return EVAL_EXIT.usage;
    }
    if (check.ok) {
      if (!args.quiet) out(`${name}: thresholds met`);
      return EVAL_EXIT.ok;
    }
    err(`golem eval: ${name} is below its thresholds:`);
    for (const failure of check.failures) err(`  - ${failure}`);
    return EVAL_EXIT.below;
  }
}

/** The bin's entry point: runs `golem eval` with `argv` and returns the exit code. */
export function main(argv: readonly string[]): Promise<number> {
  return evalCommand(argv);
}
