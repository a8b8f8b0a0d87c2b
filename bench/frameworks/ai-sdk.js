'use strict';
/**
 * The Vercel AI SDK (`ai`): `generateText` with a zod-typed `tool` and `stopWhen`, and
 * `Output.object` for structured output. The model is a plain LanguageModelV3 object shaped like
 * `MockLanguageModelV3` from `ai/test`, minus its call recording (which keeps every call's options
 * and would grow the heap in scenario (d)).
 */
const S = require('../scenario');

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function countToolResults(prompt) {
  let results = 0;
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results++;
  }
  return results;
}

const fakeModel = {
  specificationVersion: 'v3',
  provider: 'bench',
  modelId: 'bench-fake',
  supportedUrls: {},
  async doGenerate(options) {
    if (options.responseFormat !== undefined && options.responseFormat.type === 'json')
      return text(S.FORECAST_TEXT);
    const call = S.CALLS[countToolResults(options.prompt)];
    if (call === undefined) return text(S.FINAL_TEXT);
    return {
      content: [{ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.args }],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: USAGE,
      warnings: [],
    };
  },
  async doStream() {
    throw new Error('not used');
  },
};

function text(value) {
  return {
    content: [{ type: 'text', text: value }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

module.exports = {
  id: 'ai-sdk',
  label: 'ai-sdk',
  /** Scenario (g): the zod schema and the tool (the AI SDK has no agent object to build). */
  define() {
    const { tool } = require('ai');
    const { z } = require('zod');
    return () => ({
      add: tool({
        description: S.ADD_DESCRIPTION,
        inputSchema: z.object({
          a: z.number().describe('First addend'),
          b: z.number().describe('Second addend'),
        }),
        execute: async (args) => S.add(args),
      }),
    });
  },
  create() {
    const { generateText, tool, stepCountIs, Output } = require('ai');
    const { z } = require('zod');
    const tools = {
      add: tool({
        description: S.ADD_DESCRIPTION,
        inputSchema: z.object({
          a: z.number().describe('First addend'),
          b: z.number().describe('Second addend'),
        }),
        execute: async (args) => S.add(args),
      }),
    };
    const forecast = Output.object({ schema: z.object({ city: z.string(), celsius: z.int() }) });
    return {
      async runA() {
        const result = await generateText({
          model: fakeModel,
          system: S.SYSTEM,
          prompt: S.PROMPT_A,
          tools,
          stopWhen: stepCountIs(10),
        });
        const toolResults = result.steps.flatMap((step) => step.toolResults.map((r) => r.output));
        return { output: result.text, toolResults };
      },
      async runB() {
        const result = await generateText({
          model: fakeModel,
          system: S.SYSTEM,
          prompt: S.PROMPT_B,
          output: forecast,
        });
        return { output: result.output };
      },
    };
  },
};
