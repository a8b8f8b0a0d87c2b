/**
 * The OpenAI Responses API (`golem/providers/openai-responses`): generate and stream, function
 * tools, structured output, encrypted reasoning replayed statelessly, provider-hosted tools (web
 * search, file search, code interpreter) and optional server-side conversation state.
 * @packageDocumentation
 */
export type { OpenAIResponsesOptions } from './options';
export { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS } from './options';
export { OpenAIResponsesModel, openaiResponses } from './model';
export { OUTPUT_SCHEMA_NAME } from './request';
