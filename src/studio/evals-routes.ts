import type { ServerResponse } from 'node:http';
import { compareFiles, listReports, loadReport } from './eval-reports';
import { replyError, replyJson } from './http-io';

/**
 * `GET /api/evals` (the reports listed), `/api/evals/compare?base=&candidate=` (compared) and
 * `/api/evals/:file` (one report), from the reports folder; `parts` are the path's segments
 * after `/api`. Answers 404 without a folder or for another route.
 */
export async function evalsRoute(
  reports: string | undefined,
  res: ServerResponse,
  parts: readonly string[],
  query: URLSearchParams,
): Promise<void> {
  if (reports === undefined) {
    replyError(res, 404, 'the studio has no reports folder');
    return;
  }
  const id = parts[1];
  if (parts.length === 1) {
    replyJson(res, 200, await listReports(reports));
    return;
  }
  if (parts.length === 2 && id === 'compare') {
    const result = await compareFiles(
      reports,
      query.get('base') ?? '',
      query.get('candidate') ?? '',
    );
    if ('missing' in result) replyError(res, 404, `the ${result.missing} report was not found`);
    else replyJson(res, 200, result.comparison);
    return;
  }
  if (parts.length === 2 && id !== undefined) {
    const found = await loadReport(reports, id);
    if (found === undefined) replyError(res, 404, 'report not found');
    else replyJson(res, 200, found);
    return;
  }
  replyError(res, 404, 'no such API route');
}
