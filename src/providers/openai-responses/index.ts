/**
 * The OpenAI Responses API (`golem/providers/openai-responses`): generate and stream, function
 * tools, structured output, encrypted reasoning replayed statelessly, provider-hosted tools (web
 * search, file search, code interpreter) and optional server-side conversation state.
 * @packageDocumentation
 */
export type { OpenAIResponsesOptions } from './options';
export { OpenAIResponsesModel, openaiResponses } from './model';
