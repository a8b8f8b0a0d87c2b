/**
 * The example set is complete: one runnable folder per row of the Go original's example table
 * (golem v0.7.2 README), plus the TypeScript-only ones. test/examples/examples.test.ts runs them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const GO_EXAMPLES = [
  'minimal',
  'tools',
  'web-fetch',
  'file-read',
  'command-execution',
  'skills',
  'mcp-client',
  'mcp-http',
  'delegation',
  'structured-output',
  'structured-output-tool',
  'streaming',
  'run-events',
  'partial-evidence',
  'thinking',
  'conversation',
  'self-correction',
  'fallback',
  'anthropic',
  'gemini',
  'azure',
  'bedrock',
  'local-models',
  'testing-without-a-provider',
];
const TYPESCRIPT_EXAMPLES = [
  'decorated-agent',
  'nest-style-service',
  'nestjs-app',
  'standard-schema',
  'record-replay',
  'durable-approval',
  'observability',
  'document-input',
  'openai-responses',
  'mcp-server',
  'mcp-resources-prompts',
  'mcp-elicitation',
  'streaming-structured-output',
  'guardrails',
  'queue-workers',
  'ui-stream',
  'chat-ui',
  'stream-events',
  'middleware',
  'spend-caps',
  'handoffs',
  'workflow-approval',
  'evals',
  'a2a',
  'studio',
  'checked-history',
];

test.each([...GO_EXAMPLES, ...TYPESCRIPT_EXAMPLES])(
  'examples/%s has main.ts, expected-output.txt and README.md',
  (name) => {
    const folder = join(__dirname, '..', '..', 'examples', name);
    const files = ['main.ts', 'expected-output.txt', 'README.md'];
    expect(files.filter((file) => !existsSync(join(folder, file)))).toEqual([]);
  },
);

test('the conversation example reads its input: the suite feeds it input.txt', () => {
  expect(existsSync(join(__dirname, '..', '..', 'examples', 'conversation', 'input.txt'))).toBe(
    true,
  );
});
