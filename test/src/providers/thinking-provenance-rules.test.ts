/** Which reasoning an adapter may send: the issuer table of docs/guides/thinking.md. */
import { replayableTo } from '../../../src/providers/shared/provenance';

const claudeApi = { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' };

test.each([
  ['same provider and model', claudeApi, claudeApi, true],
  [
    'Anthropic → another Claude model',
    claudeApi,
    { provider: 'anthropic', model: 'claude-opus-4-1-20250805' },
    false,
  ],
  [
    'Anthropic → Claude on Bedrock, same model (inference profile id)',
    claudeApi,
    { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
    true,
  ],
  [
    'Claude on Bedrock (base id) → Anthropic, same model',
    { provider: 'bedrock', model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' },
    claudeApi,
    true,
  ],
  [
    'Claude on Bedrock (ARN) → Anthropic, same model',
    {
      provider: 'bedrock',
      model:
        'arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-sonnet-4-5-20250929-v1:0',
    },
    claudeApi,
    true,
  ],
  [
    'Anthropic alias → Bedrock dated id (not provably the same model)',
    { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
    false,
  ],
  [
    'Anthropic → a non-Claude Bedrock model',
    claudeApi,
    { provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
    false,
  ],
  [
    'Bedrock Nova → Bedrock Nova, same model',
    { provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
    { provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
    true,
  ],
  [
    'Bedrock DeepSeek → Bedrock Nova',
    { provider: 'bedrock', model: 'us.deepseek.r1-v1:0' },
    { provider: 'bedrock', model: 'us.amazon.nova-pro-v1:0' },
    false,
  ],
  [
    'Gemini → another Gemini model',
    { provider: 'gemini', model: 'gemini-3-pro-preview' },
    { provider: 'gemini', model: 'gemini-2.5-flash' },
    false,
  ],
  ['Gemini → Anthropic', { provider: 'gemini', model: 'claude-x' }, claudeApi, false],
  ['Anthropic → Gemini', claudeApi, { provider: 'gemini', model: claudeApi.model }, false],
  [
    'DeepSeek → OpenAI',
    { provider: 'deepseek', model: 'deepseek-chat' },
    { provider: 'openai', model: 'deepseek-chat' },
    false,
  ],
  ['unstamped (older history) → any', {}, { provider: 'gemini', model: 'gemini-2.5-flash' }, true],
  [
    'provider without a model → its provider',
    { provider: 'gemini' },
    { provider: 'gemini', model: 'g' },
    true,
  ],
  ['provider without a model → another provider', { provider: 'gemini' }, claudeApi, false],
] as const)('%s', (_name, from, to, expected) => {
  expect(replayableTo(from, to)).toBe(expected);
});
