import type { StudioErrorBody } from '../../../src/studio/api-types';
import { reportProblem } from './error-bus';
import { studioToken } from './token';

/** A failed API call: the HTTP status (0 for a network failure) and the server's message. */
export interface ApiFailure extends Error {
  readonly status: number;
}

/** Whether `error` is an {@link ApiFailure}. */
export function isApiFailure(error: unknown): error is ApiFailure {
  return error instanceof Error && typeof (error as Partial<ApiFailure>).status === 'number';
}

/**
 * The URL of an API path. Paths are relative ("api/runs"), so the app works wherever the
 * studio is mounted (the document is always the studio's index: routing lives in the hash).
 */
export function apiUrl(path: string): string {
  return new URL(path, document.baseURI).toString();
}

/** The headers every API request carries. */
export function authHeaders(): Record<string, string> {
  const token = studioToken();
  return token === '' ? {} : { Authorization: `Bearer ${token}` };
}

function failure(status: number, message: string): ApiFailure {
  return Object.assign(new Error(message), { status });
}

async function readError(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as Partial<StudioErrorBody>;
    if (typeof body.error === 'string' && body.error !== '') return body.error;
  } catch {
    // Not JSON: fall through to the status text.
  }
  return response.statusText === '' ? `HTTP ${response.status}` : response.statusText;
}

function explain(status: number, message: string): string {
  if (status === 401)
    return 'Not authorized: open the studio with the URL `golem studio` printed (it carries ?token=).';
  if (status === 403) return `Refused by the studio: ${message}`;
  return message;
}

/** Options of {@link request}. */
export interface RequestOptions {
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** Do not show a failure in the error banner (the caller shows it). */
  readonly quiet?: boolean;
}

/**
 * Calls the studio API with the bearer token and parses the JSON answer. A failure shows in
 * the error banner (unless `quiet`) and rejects with an {@link ApiFailure}.
 */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    const problem = failure(0, 'The studio server cannot be reached.');
    if (options.quiet !== true) reportProblem(problem.message);
    throw problem;
  }
  if (!response.ok) {
    const problem = failure(response.status, explain(response.status, await readError(response)));
    if (options.quiet !== true) reportProblem(problem.message);
    throw problem;
  }
  return (await response.json()) as T;
}

/** The URL of a server-sent events endpoint, with the token as `?token=` (SSE only). */
export function streamUrl(path: string): string {
  const url = new URL(path, document.baseURI);
  const token = studioToken();
  if (token !== '') url.searchParams.set('token', token);
  return url.toString();
}
