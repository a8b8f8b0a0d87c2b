/**
 * The Anthropic Messages API adapter: `anthropic({ model, apiKey })` or `new AnthropicModel(...)`.
 * @packageDocumentation
 */
export { AnthropicModel, anthropic } from './model';
export type { AnthropicOptions, AnthropicEffort } from './options';
export {
  DEFAULT_BASE_URL,
  DEFAULT_VERSION,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
} from './options';
export { compileOutputSchema } from './schema';
