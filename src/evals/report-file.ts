import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { EvalError } from './eval-error';
import { renderHtml } from './html-report';
import type { Comparison, ExperimentReport } from './report-types';

/** Where {@link writeReport} writes. */
export interface WriteReportOptions {
  /** Path of the JSON report (what {@link readReport} and `--baseline` read). */
  readonly json?: string;
  /** Path of the self-contained HTML page. */
  readonly html?: string;
  /** A comparison with a baseline, shown in the HTML page. */
  readonly comparison?: Comparison;
  /** The HTML page's title; default the experiment's name. */
  readonly title?: string;
}

/**
 * Writes `report` as JSON (`json`) and/or as an HTML page (`html`, with `comparison` when
 * given), creating missing folders. Each file is written to a temporary name then renamed, so a
 * reader never sees half a report. Without either path it throws a `ConfigError`.
 */
export async function writeReport(
  report: ExperimentReport,
  options: WriteReportOptions,
): Promise<void> {
  if (options.json === undefined && options.html === undefined)
    throw new ConfigError(
      'writeReport needs somewhere to write: pass { json: "report.json" } and/or { html: "report.html" }.',
      { component: 'evals', option: 'json' },
    );
  if (options.json !== undefined)
    await writeAtomic(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (options.html !== undefined)
    await writeAtomic(
      options.html,
      renderHtml(report, {
        ...(options.comparison === undefined ? {} : { comparison: options.comparison }),
        ...(options.title === undefined ? {} : { title: options.title }),
      }),
    );
}

/**
 * Reads a JSON report written by {@link writeReport} and checks its shape. A missing file, text
 * that is not JSON, or JSON that is not a report (another format version, a comparison, a field
 * of the wrong type) throws an `EvalError` of kind `report` naming the file and the field.
 */
export async function readReport(path: string): Promise<ExperimentReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = isRecord(error) ? error.code : undefined;
    throw new EvalError(
      'report',
      code === 'ENOENT'
        ? `No report at ${path}: write one with writeReport(report, { json: path }) or \`golem eval --json\`.`
        : `Cannot read the report ${path}: ${error instanceof Error ? error.message : String(error)}.`,
      { file: path, cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EvalError(
      'report',
      `The report ${path} is not JSON (${error instanceof Error ? error.message : String(error)}): ` +
        'it may be truncated; write it again.',
      { file: path, cause: error },
    );
  }
  const problem = reportProblem(value);
  if (problem !== undefined)
    throw new EvalError('report', `The file ${path} is not a golem eval report: ${problem}.`, {
      file: path,
    });
  return value as ExperimentReport;
}

async function writeAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${String(process.pid)}.tmp`;
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, path);
}

/** What one field must be; a message fragment names it. */
type Check = (value: unknown) => boolean;

const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const isArray: Check = (v) => Array.isArray(v);
const KINDS = new Map<Check, string>([
  [isNumber, 'a number'],
  [isString, 'a string'],
  [isBoolean, 'a boolean'],
  [isArray, 'an array'],
  [isRecord, 'an object'],
]);

/** Why `value` is not an {@link ExperimentReport}, or `undefined` when it is one. */
function reportProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'the top level must be an object';
  if (value.golemEvalComparison !== undefined)
    return 'it is a comparison (golemEvalComparison), not a report';
  if (value.golemEvalReport !== 1)
    return value.golemEvalReport === undefined
      ? 'golemEvalReport: 1 is missing'
      : `golemEvalReport is ${JSON.stringify(value.golemEvalReport)}; this version reads 1`;
  return (
    fields(value, 'report', {
      name: isString,
      dataset: isString,
      startedAt: isString,
      durationMs: isNumber,
      repeat: isNumber,
      metadata: isRecord,
      cases: isArray,
      summary: isRecord,
    }) ??
    summaryProblem(value.summary as Record<string, unknown>) ??
    each(value.cases as unknown[], 'report.cases', caseProblem)
  );
}

function summaryProblem(s: Record<string, unknown>): string | undefined {
  return (
    fields(s, 'report.summary', {
      cases: isNumber,
      runs: isNumber,
      passed: isNumber,
      failed: isNumber,
      errored: isNumber,
      passRate: isNumber,
      meanScore: isNumber,
      evaluators: isArray,
      usage: isRecord,
      evaluatorUsage: isRecord,
      latency: isRecord,
      replayed: isNumber,
    }) ??
    optional(s, 'report.summary', { cost: isNumber, evaluatorCost: isNumber }) ??
    usageProblem(s.usage, 'report.summary.usage') ??
    usageProblem(s.evaluatorUsage, 'report.summary.evaluatorUsage') ??
    fields(s.latency as Record<string, unknown>, 'report.summary.latency', {
      p50: isNumber,
      p90: isNumber,
      p99: isNumber,
      mean: isNumber,
      max: isNumber,
    }) ??
    each(s.evaluators as unknown[], 'report.summary.evaluators', (e, at) =>
      isRecord(e)
        ? fields(e, at, {
            name: isString,
            count: isNumber,
            passRate: isNumber,
            meanScore: isNumber,
            errors: isNumber,
          })
        : `${at} must be an object`,
    )
  );
}

function caseProblem(c: unknown, at: string): string | undefined {
  if (!isRecord(c)) return `${at} must be an object`;
  return (
    fields(c, at, {
      name: isString,
      runs: isArray,
      passRate: isNumber,
      meanScore: isNumber,
      scoreStdDev: isNumber,
    }) ??
    optional(c, at, { metadata: isRecord }) ??
    each(c.runs as unknown[], `${at}.runs`, runProblem)
  );
}

function runProblem(run: unknown, at: string): string | undefined {
  if (!isRecord(run)) return `${at} must be an object`;
  return (
    fields(run, at, {
      repeat: isNumber,
      pass: isBoolean,
      scores: isArray,
      messages: isArray,
      toolCalls: isArray,
      usage: isRecord,
      requests: isNumber,
      turns: isNumber,
      durationMs: isNumber,
      attempts: isNumber,
      replayed: isBoolean,
    }) ??
    optional(run, at, { cost: isNumber, error: isRecord }) ??
    (isRecord(run.error)
      ? fields(run.error, `${at}.error`, { name: isString, message: isString })
      : undefined) ??
    usageProblem(run.usage, `${at}.usage`) ??
    each(run.scores as unknown[], `${at}.scores`, (score, where) =>
      isRecord(score)
        ? (fields(score, where, { name: isString, pass: isBoolean, score: isNumber }) ??
          optional(score, where, { reason: isString, label: isString, error: isString }))
        : `${where} must be an object`,
    ) ??
    each(run.toolCalls as unknown[], `${at}.toolCalls`, (call, where) =>
      isRecord(call)
        ? fields(call, where, { name: isString, id: isString })
        : `${where} must be an object`,
    )
  );
}

function usageProblem(usage: unknown, at: string): string | undefined {
  if (!isRecord(usage)) return `${at} must be an object`;
  return fields(usage, at, { inputTokens: isNumber, outputTokens: isNumber });
}

/** The first required field of `shape` missing from `value` or of the wrong type. */
function fields(
  value: Record<string, unknown>,
  at: string,
  shape: Readonly<Record<string, Check>>,
): string | undefined {
  for (const [key, check] of Object.entries(shape)) {
    const field = value[key];
    if (!check(field))
      return `${at}.${key} must be ${KINDS.get(check) ?? 'valid'} (it is ${kind(field)})`;
  }
  return undefined;
}

/** The first optional field of `shape` present in `value` with the wrong type. */
function optional(
  value: Record<string, unknown>,
  at: string,
  shape: Readonly<Record<string, Check>>,
): string | undefined {
  for (const [key, check] of Object.entries(shape)) {
    const field = value[key];
    if (field !== undefined && !check(field))
      return `${at}.${key} must be ${KINDS.get(check) ?? 'valid'} (it is ${kind(field)})`;
  }
  return undefined;
}

function each(
  items: readonly unknown[],
  at: string,
  problem: (item: unknown, at: string) => string | undefined,
): string | undefined {
  for (const [index, item] of items.entries()) {
    const found = problem(item, `${at}[${String(index)}]`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function kind(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string'
    ? `the string ${JSON.stringify(value.slice(0, 40))}`
    : typeof value;
}
