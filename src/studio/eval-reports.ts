import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { compareReports, readReport } from '../evals/index';
import type { EvalReportSummary } from './api-types';

/** A report file name the studio reads: a plain `*.json` name, no path. */
const REPORT_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/;

/** Whether `file` may name a report in the folder (no separators, no `..`). */
export function validReportFile(file: string): boolean {
  return REPORT_FILE.test(file) && !file.includes('..');
}

/** The reports of `folder` that `readReport` accepts, newest `startedAt` first. */
export async function listReports(folder: string): Promise<EvalReportSummary[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const out: EvalReportSummary[] = [];
  for (const file of names.filter(validReportFile).sort()) {
    try {
      const report = await readReport(join(folder, file));
      out.push({
        file,
        name: report.name,
        dataset: report.dataset,
        startedAt: report.startedAt,
        cases: report.summary.cases,
        passRate: report.summary.passRate,
        meanScore: report.summary.meanScore,
      });
    } catch {
      // not a report: skipped
    }
  }
  return out.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** One report of `folder`, or undefined when `file` is not a valid report there. */
export async function loadReport(folder: string, file: string): Promise<unknown> {
  if (!validReportFile(file)) return undefined;
  try {
    return await readReport(join(folder, file));
  } catch {
    return undefined;
  }
}

/** The comparison of two reports of `folder`, or which one is missing. */
export async function compareFiles(
  folder: string,
  base: string,
  candidate: string,
): Promise<{ readonly comparison: unknown } | { readonly missing: string }> {
  if (!validReportFile(base)) return { missing: 'base' };
  if (!validReportFile(candidate)) return { missing: 'candidate' };
  let baseline;
  try {
    baseline = await readReport(join(folder, base));
  } catch {
    return { missing: 'base' };
  }
  let next;
  try {
    next = await readReport(join(folder, candidate));
  } catch {
    return { missing: 'candidate' };
  }
  return { comparison: compareReports(baseline, next) };
}
