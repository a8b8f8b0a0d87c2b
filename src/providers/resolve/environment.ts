import { DEFAULT_MODEL_IDS } from './providers';

/** The environment `resolveModel` and `detectDefaultModel` read: `process.env` or a plain record. */
export type ResolveEnvironment = NodeJS.ProcessEnv | Readonly<Record<string, string | undefined>>;

/** The variables the resolver reads for each provider (the hosted presets' keys come from `OPENAI_PRESETS`). */
export const ENV = Object.freeze({
  openaiKey: 'OPENAI_API_KEY',
  anthropicKey: 'ANTHROPIC_API_KEY',
  geminiKey: 'GEMINI_API_KEY',
  googleKey: 'GOOGLE_API_KEY',
  azureEndpoint: 'AZURE_OPENAI_ENDPOINT',
  azureKey: 'AZURE_OPENAI_API_KEY',
  azureApiVersion: 'AZURE_OPENAI_API_VERSION',
  awsRegion: 'AWS_REGION',
  awsDefaultRegion: 'AWS_DEFAULT_REGION',
  localBaseURL: 'GOLEM_LOCAL_BASE_URL',
  openaiModel: 'OPENAI_MODEL',
  anthropicModel: 'ANTHROPIC_MODEL',
  geminiModel: 'GEMINI_MODEL',
  localModel: 'GOLEM_LOCAL_MODEL',
});

/**
 * The value of `name` in `env`, trimmed; `undefined` when it is unset, not a string, or blank
 * (an empty `OPENAI_API_KEY=` counts as not set).
 */
export function readVariable(env: ResolveEnvironment, name: string): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(env, name)) return undefined;
  const value: unknown = env[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/**
 * Values in `env` that must never appear in a message: every variable whose name looks secret
 * (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*PASSWD*`, `*CREDENTIAL*`) with a value of at
 * least 8 characters, untrimmed and trimmed, longest first.
 */
export function secretValues(env: ResolveEnvironment): string[] {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string' || !SECRET_NAME.test(name)) continue;
    for (const candidate of [value, value.trim()])
      if (candidate.length >= 8) secrets.add(candidate);
  }
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * The model string of the first provider the environment configures, for the container and the
 * CLI: `OPENAI_API_KEY` → `openai:<OPENAI_MODEL or gpt-4o-mini>`; `ANTHROPIC_API_KEY` →
 * `anthropic:<ANTHROPIC_MODEL or claude-sonnet-4-5>`; `GEMINI_API_KEY` (or `GOOGLE_API_KEY`) →
 * `gemini:<GEMINI_MODEL or gemini-2.5-flash>`; `GOLEM_LOCAL_BASE_URL` (Ollama, LM Studio or any
 * OpenAI-compatible local server) → `ollama:<GOLEM_LOCAL_MODEL or llama3.2>`; otherwise `test`,
 * so an app runs offline on a fresh machine. Blank variables count as unset. Reads only `env`
 * (default `process.env`) and never throws.
 */
export function detectDefaultModel(env: ResolveEnvironment = process.env): string {
  const model = (variable: string, fallback: string): string =>
    readVariable(env, variable) ?? fallback;
  if (readVariable(env, ENV.openaiKey) !== undefined)
    return `openai:${model(ENV.openaiModel, DEFAULT_MODEL_IDS.openai)}`;
  if (readVariable(env, ENV.anthropicKey) !== undefined)
    return `anthropic:${model(ENV.anthropicModel, DEFAULT_MODEL_IDS.anthropic)}`;
  if (
    readVariable(env, ENV.geminiKey) !== undefined ||
    readVariable(env, ENV.googleKey) !== undefined
  )
    return `gemini:${model(ENV.geminiModel, DEFAULT_MODEL_IDS.gemini)}`;
  if (readVariable(env, ENV.localBaseURL) !== undefined)
    return `ollama:${model(ENV.localModel, DEFAULT_MODEL_IDS.ollama)}`;
  return 'test';
}
