import { AsyncLocalStorage } from 'node:async_hooks';
import type { Middleware, ModelResponse } from '../core/index';
import { loadResponse, readCassette, storeResponse, writeCassette } from './cassette';
import type { StoredResponse } from './cassette';
import { requestFingerprint } from './cassette-fingerprint';
import { EvalError } from './eval-error';

/**
 * The model calls a case run's evaluators make (LLM judges), kept in the case's cassette by
 * request fingerprint: a judge asked the same question again gets the recorded verdict, so
 * re-scoring a replayed case calls no provider; a changed rubric or output is a new question.
 */
export interface Judgments {
  /** The cassette file the judgments belong to. */
  readonly file: string;
  readonly caseName: string;
  /** Whether a question not recorded may be asked live (and recorded); not in `replay` mode. */
  readonly live: boolean;
  /** Judgments recorded before. */
  readonly recorded: ReadonlyMap<string, StoredResponse>;
  /** Judgments made during this run, to add to the cassette. */
  readonly added: Map<string, StoredResponse>;
}

const storage = new AsyncLocalStorage<Judgments>();

/** Runs `fn` (a case run's evaluators) with `judgments` as the place judges record to. */
export function withJudgments<T>(judgments: Judgments | undefined, fn: () => T): T {
  return judgments === undefined ? fn() : storage.run(judgments, fn);
}

/**
 * Writes the judgments made during a case run into its cassette file (beside the recorded
 * calls). Does nothing when none were made.
 */
export async function saveJudgments(judgments: Judgments | undefined): Promise<void> {
  if (judgments === undefined || judgments.added.size === 0) return;
  const cassette = await readCassette(judgments.file, judgments.caseName);
  if (cassette === undefined) return;
  await writeCassette(judgments.file, {
    ...cassette,
    judgments: { ...cassette.judgments, ...Object.fromEntries(judgments.added) },
  });
}

/**
 * The middleware LLM judges run their model through: inside an experiment with cassettes it
 * answers a question recorded before, asks (and records) a new one unless the experiment
 * replays only (then `EvalError` `cassette-missing`); elsewhere it passes every call through.
 */
export function judgmentCassette(): Middleware {
  return {
    name: 'judgmentCassette',
    async generate(call, next): Promise<ModelResponse> {
      const judgments = storage.getStore();
      if (judgments === undefined) return next(call.request);
      const fingerprint = requestFingerprint(call.request);
      const known = judgments.recorded.get(fingerprint) ?? judgments.added.get(fingerprint);
      if (known !== undefined) return loadResponse(known);
      if (!judgments.live)
        throw new EvalError(
          'cassette-missing',
          `case "${judgments.caseName}": the judge's question is not recorded in ${judgments.file} (the rubric, the output or the judge changed); record the case again (mode 'record' or 'auto', or --record)`,
          { caseName: judgments.caseName, file: judgments.file },
        );
      const response = await next(call.request);
      judgments.added.set(fingerprint, storeResponse(response));
      return response;
    },
  };
}
