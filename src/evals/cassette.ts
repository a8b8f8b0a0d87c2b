import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { decodeMessages, encodeMessage } from '../core/index';
import type { Delta, JsonValue, ModelResponse, Usage } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { EvalError } from './eval-error';

/**
 * The cassette file of one case run: every model call (request fingerprint, response, streamed
 * fragments) and tool execution (arguments, result or error) of the task, in order. Cassettes
 * hold model-level traffic only: never request headers or API keys.
 */
export interface CassetteFile {
  /** Format version; always `1`. */
  readonly golemCassette: 1;
  readonly case: string;
  readonly repeat: number;
  /** ISO time of the recording. */
  readonly recordedAt: string;
  /** Wall time of the recorded task in ms (a replayed run reports it). */
  readonly durationMs: number;
  readonly calls: readonly CassetteCall[];
  /**
   * The model calls the case run's evaluators made (LLM judges), by request fingerprint: replayed
   * when a judge asks the same question again. Absent: none.
   */
  readonly judgments?: Readonly<Record<string, StoredResponse>>;
}

/** A model response as stored: the message in the durable JSON (`encodeMessage`). */
export interface StoredResponse {
  readonly message: JsonValue;
  readonly usage: Usage;
  readonly finishReason?: string;
  readonly modelName?: string;
}

/** One recorded model call. */
export interface CassetteModelCall {
  readonly type: 'model';
  /** sha256 of the request's canonical JSON (see `requestFingerprint`). */
  readonly fingerprint: string;
  /** For readers of the file: how many messages were sent, and an excerpt of the last. */
  readonly request: { readonly messages: number; readonly last: string };
  readonly response: StoredResponse;
  /** The fragments of a streamed call, in order. */
  readonly deltas?: readonly Delta[];
}

/** One recorded tool execution. */
export interface CassetteToolCall {
  readonly type: 'tool';
  readonly tool: string;
  readonly callId: string;
  readonly args: JsonValue;
  readonly result?: string;
  /** A tool that threw: its error's name and message (a `ModelRetry`'s reason). */
  readonly error?: { readonly name: string; readonly message: string };
}

/** One recorded call. */
export type CassetteCall = CassetteModelCall | CassetteToolCall;

/** Longest readable stem of a cassette file name (before its hash). */
const MAX_STEM = 80;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * The file-name stem of a case: the name with every character outside `A-Za-z0-9._-` replaced
 * by `_`, plus `-` and a short hash of the name whenever that changed it (or the name is long,
 * hidden, reserved on Windows, or ends like a repeat suffix), so two cases never share a file.
 */
export function safeCaseName(caseName: string): string {
  const replaced = caseName.replace(/[^A-Za-z0-9._-]/g, '_');
  const plain =
    replaced === caseName &&
    caseName !== '' &&
    caseName.length <= MAX_STEM &&
    !caseName.startsWith('.') &&
    !RESERVED.test(caseName) &&
    !/\.r\d+$/.test(caseName);
  if (plain) return caseName;
  const hash = createHash('sha256').update(caseName, 'utf8').digest('hex').slice(0, 10);
  return `${replaced.slice(0, MAX_STEM).replace(/^\./, '_')}-${hash}`;
}

/** The cassette file of a case run: `<dir>/<safe>.json` for repeat 0, `<safe>.r<k>.json` after. */
export function cassettePath(dir: string, caseName: string, repeat: number): string {
  const stem = safeCaseName(caseName);
  return path.join(dir, repeat === 0 ? `${stem}.json` : `${stem}.r${repeat}.json`);
}

/** Stores a model response: its message through the durable codec. */
export function storeResponse(response: ModelResponse): StoredResponse {
  const stored: {
    message: JsonValue;
    usage: Usage;
    finishReason?: string;
    modelName?: string;
  } = {
    message: JSON.parse(encodeMessage(response.message)) as JsonValue,
    usage: { ...response.usage },
  };
  if (response.finishReason !== undefined) stored.finishReason = response.finishReason;
  if (response.modelName !== undefined) stored.modelName = response.modelName;
  return stored;
}

/** The model response a stored one holds (throws `HistoryFormatError` when it does not decode). */
export function loadResponse(stored: StoredResponse): ModelResponse {
  const [message] = decodeMessages(JSON.stringify([stored.message]));
  if (message === undefined) throw new Error('the stored response has no message');
  const response: ModelResponse = { message, usage: { ...stored.usage } };
  if (stored.finishReason !== undefined) response.finishReason = stored.finishReason;
  if (stored.modelName !== undefined) response.modelName = stored.modelName;
  return response;
}

/**
 * Reads the cassette at `file`; `undefined` when there is none. A file that does not parse or
 * has the wrong shape (or a response that does not decode) throws `EvalError('cassette-corrupt')`
 * naming the file and the case.
 */
export async function readCassette(
  file: string,
  caseName: string,
): Promise<CassetteFile | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isRecord(error) && error['code'] === 'ENOENT') return undefined;
    throw error;
  }
  const corrupt = (why: string, cause?: unknown): EvalError =>
    new EvalError(
      'cassette-corrupt',
      `cassette ${file} of case "${caseName}" ${why}; delete it and record again (mode 'record' or --record)`,
      { caseName, file, cause },
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt('is not valid JSON', error);
  }
  const problem = cassetteProblem(value);
  if (problem !== undefined) throw corrupt(problem);
  const cassette = value as CassetteFile;
  for (const [i, call] of cassette.calls.entries()) {
    if (call.type !== 'model') continue;
    try {
      loadResponse(call.response);
    } catch (error) {
      throw corrupt(`has a response at call ${i} that does not decode`, error);
    }
  }
  return cassette;
}

/** What is wrong with a parsed cassette file, or `undefined` when it has the right shape. */
export function cassetteProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'is not a JSON object';
  if (value['golemCassette'] !== 1) return 'has no "golemCassette": 1';
  if (typeof value['case'] !== 'string') return 'has no "case" name';
  if (!Number.isInteger(value['repeat'])) return 'has no integer "repeat"';
  if (typeof value['durationMs'] !== 'number' || !Number.isFinite(value['durationMs']))
    return 'has no numeric "durationMs"';
  const calls = value['calls'];
  if (!Array.isArray(calls)) return 'has no "calls" array';
  for (const [i, call] of (calls as unknown[]).entries()) {
    const problem = callProblem(call);
    if (problem !== undefined) return `has a bad call ${i}: ${problem}`;
  }
  const judgments = value['judgments'];
  if (judgments === undefined) return undefined;
  if (!isRecord(judgments)) return 'has "judgments" that is not an object';
  for (const [fingerprint, stored] of Object.entries(judgments)) {
    if (!isRecord(stored) || !isRecord(stored['message']) || !isUsage(stored['usage']))
      return `has a bad judgment ${fingerprint}: no response { message, usage }`;
  }
  return undefined;
}

function callProblem(call: unknown): string | undefined {
  if (!isRecord(call)) return 'not an object';
  if (call['type'] === 'model') {
    if (typeof call['fingerprint'] !== 'string') return 'no fingerprint';
    const response = call['response'];
    if (!isRecord(response) || !isRecord(response['message']) || !isUsage(response['usage']))
      return 'no response { message, usage }';
    const deltas = call['deltas'];
    if (deltas !== undefined && (!Array.isArray(deltas) || !deltas.every((d) => isRecord(d))))
      return 'deltas is not a list of objects';
    return undefined;
  }
  if (call['type'] === 'tool') {
    if (typeof call['tool'] !== 'string' || typeof call['callId'] !== 'string')
      return 'no tool or callId';
    const error = call['error'];
    if (error !== undefined) {
      if (
        !isRecord(error) ||
        typeof error['name'] !== 'string' ||
        typeof error['message'] !== 'string'
      )
        return 'error is not { name, message }';
      return undefined;
    }
    if (typeof call['result'] !== 'string') return 'neither a result text nor an error';
    return undefined;
  }
  return 'type is neither "model" nor "tool"';
}

function isUsage(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value['inputTokens'] === 'number' &&
    typeof value['outputTokens'] === 'number'
  );
}

/** Writes `cassette` to `file` (creating its folder), through a temporary file renamed in place. */
export async function writeCassette(file: string, cassette: CassetteFile): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomUUID()}.tmp`;
  await fs.writeFile(temp, `${JSON.stringify(cassette, null, 2)}\n`, 'utf8');
  await fs.rename(temp, file);
}
