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

/** The history scenario's model: one more turn, answered with text (nothing to count). */
const historyModel = {
  ...fakeModel,
  modelId: 'bench-fake-history',
  async doGenerate() {
    return text(S.FINAL_TEXT);
  },
};

/**
 * The streaming scenarios' model: `doStream` returns a ReadableStream whose parts are all enqueued
 * at once (an instant provider). `text`: STREAM_DELTAS text deltas. `tool`: with no tool result
 * yet, an `add` call whose input comes one character per `tool-input-delta`; after it, "done".
 */
function streamingModel(kind) {
  const finish = (unified, raw) => ({
    type: 'finish',
    usage: USAGE,
    finishReason: { unified, raw },
  });
  const textParts = (deltas, token) => [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't0' },
    ...Array.from({ length: deltas }, () => ({ type: 'text-delta', id: 't0', delta: token })),
    { type: 'text-end', id: 't0' },
    finish('stop', 'stop'),
  ];
  return {
    ...fakeModel,
    modelId: `bench-fake-stream-${kind}`,
    async doGenerate() {
      throw new Error('the streaming scenarios stream');
    },
    async doStream(options) {
      let parts;
      if (kind === 'text') parts = textParts(S.STREAM_DELTAS, S.STREAM_TOKEN);
      else if (countToolResults(options.prompt) > 0) parts = textParts(1, S.FINAL_TEXT);
      else {
        const { id, name } = S.CALLS[0];
        parts = [
          { type: 'stream-start', warnings: [] },
          { type: 'tool-input-start', id, toolName: name },
          ...Array.from(S.STREAM_ARGS, (ch) => ({ type: 'tool-input-delta', id, delta: ch })),
          { type: 'tool-input-end', id },
          { type: 'tool-call', toolCallId: id, toolName: name, input: S.STREAM_ARGS },
          finish('tool-calls', 'tool_calls'),
        ];
      }
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

/** AI SDK ModelMessages of the carried history. */
const SHAPE = {
  user: (content) => ({ role: 'user', content }),
  call: (toolCallId, a, b) => ({
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId, toolName: 'add', input: { a, b } }],
  }),
  result: (toolCallId, value) => ({
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId, toolName: 'add', output: { type: 'text', value } },
    ],
  }),
  assistant: (content) => ({ role: 'assistant', content }),
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
    const { generateText, streamText, tool, stepCountIs, Output } = require('ai');
    const { z } = require('zod');
    const tools = {
      add: tool({
        description: S.ADD_DESCRIPTION,
        inputSchema: S.addArgsSchema(z),
        execute: async (args) => S.add(args),
      }),
    };
    const forecast = Output.object({ schema: S.forecastSchema(z) });
    const history = S.buildHistory(SHAPE);
    const textModel = streamingModel('text');
    const toolModel = streamingModel('tool');
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
      async runHistory() {
        const result = await generateText({
          model: historyModel,
          system: S.SYSTEM,
          messages: [...history, { role: 'user', content: S.PROMPT_HISTORY }],
          tools,
          stopWhen: stepCountIs(10),
        });
        return { output: result.text };
      },
      /** `textStream`, what a chat UI reads. */
      async runStreamText() {
        const sink = S.makeSink();
        const result = streamText({
          model: textModel,
          system: S.SYSTEM,
          prompt: S.PROMPT_A,
          tools,
        });
        for await (const chunk of result.textStream) sink.push(chunk);
        return { output: await result.text, received: sink.received };
      },
      /** `fullStream`, to see the tool input deltas as well as the text. */
      async runStreamTool() {
        const sink = S.makeSink();
        const result = streamText({
          model: toolModel,
          system: S.SYSTEM,
          prompt: S.PROMPT_A,
          tools,
          stopWhen: stepCountIs(10),
        });
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') sink.push(part.text);
          else if (part.type === 'tool-input-delta') sink.push(part.delta);
          else if (part.type === 'error') throw part.error;
        }
        const steps = await result.steps;
        const toolResults = steps.flatMap((step) => step.toolResults.map((r) => r.output));
        return { output: await result.text, toolResults, received: sink.received };
      },
    };
  },
};
