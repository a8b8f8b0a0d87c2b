/**
 * The experiments: the same dataset, evaluators and judge for both prompt versions; each
 * version keeps its recorded traffic in its own cassette folder.
 */
import { join } from 'node:path';
import type { Model } from 'golem';
import {
  defineExperiment,
  llmJudge,
  loadDataset,
  maxCost,
  maxTurns,
  type CassetteMode,
  type Experiment,
} from 'golem/evals';
import { FunctionModel } from 'golem/testing';
import { assistants, type AssistantInput, type PromptVersion } from './agents';

/** The checked-in cassettes: one folder per prompt version, one file per case. */
export const CASSETTES = join(__dirname, 'cassettes');

/** Whether `value` is an assistant case input. */
function isAssistantInput(value: unknown): value is AssistantInput {
  if (typeof value !== 'object' || value === null) return false;
  const { agent, prompt } = value as Record<string, unknown>;
  return (agent === 'weather' || agent === 'booking') && typeof prompt === 'string';
}

/**
 * The judge's model. A real judge is a strong model with its own key; here a scripted one grades
 * the way the rubric says — an answer that states a result (a temperature, a confirmation, a
 * refusal with its reason) passes, a bare one-liner does not.
 */
export function scriptedJudge(): Model {
  return new FunctionModel((request) => {
    const prompt = request.messages.at(-1)?.content ?? '';
    const output = /OUTPUT\n`{3,}\n([\s\S]*?)\n`{3,}/.exec(prompt)?.[1] ?? '';
    const specific = /°C|confirmation|no table|no weather/.test(output);
    const verdict = specific
      ? { reasoning: 'States the result the user asked for.', pass: true, score: 0.9 }
      : {
          reasoning: 'No temperature, confirmation code or clear refusal.',
          pass: false,
          score: 0.3,
        };
    return {
      message: { role: 'assistant', content: JSON.stringify(verdict) },
      usage: { inputTokens: 120, outputTokens: 20 },
    };
  });
}

/** The rubric the judge grades every answer against. */
export const RUBRIC =
  'The reply answers the request directly: a weather reply gives the sky and the temperature, a booking reply gives the confirmation code or says plainly that no table is free.';

/** The experiment of one prompt version, replaying (or recording) its cassettes. */
export function assistantExperiment(
  version: PromptVersion,
  mode: CassetteMode = 'auto',
): Experiment<unknown, string> {
  const agents = assistants(version);
  return defineExperiment<unknown, string>({
    name: version,
    dataset: () => loadDataset(join(__dirname, 'dataset.yaml')),
    task: (input, ctx) => {
      if (!isAssistantInput(input)) throw new TypeError('a case input is { agent, prompt }');
      return agents[input.agent].run(input.prompt, ctx.runOptions);
    },
    evaluators: [maxTurns(4), maxCost(0.001), llmJudge({ model: scriptedJudge(), rubric: RUBRIC })],
    cassettes: { dir: join(CASSETTES, version), mode },
    concurrency: 4,
    metadata: { prompt: version, model: 'gpt-4o-mini' },
    thresholds: { passRate: 0.6 },
  });
}
