'use strict';
/**
 * The OpenAI Agents SDK (`@openai/agents`), tracing disabled: an `Agent` with a zod-typed `tool`
 * run by a `Runner`, and `outputType` for structured output. The model is a custom `Model`
 * implementation returning Responses-API-shaped items at once.
 */
const S = require('../scenario');

function countToolResults(input) {
  if (typeof input === 'string') return 0;
  let results = 0;
  for (const item of input) if (item.type === 'function_call_result') results++;
  return results;
}

function createModel(Usage) {
  const usage = () => new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
  const message = (text) => ({
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  });
  return {
    async getResponse(request) {
      if (request.outputType !== undefined && request.outputType !== 'text')
        return { usage: usage(), output: [message(S.FORECAST_TEXT)] };
      const call = S.CALLS[countToolResults(request.input)];
      if (call === undefined) return { usage: usage(), output: [message(S.FINAL_TEXT)] };
      return {
        usage: usage(),
        output: [
          {
            type: 'function_call',
            callId: call.id,
            name: call.name,
            arguments: call.args,
            status: 'completed',
          },
        ],
      };
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

module.exports = {
  id: 'openai-agents',
  label: 'openai-agents',
  /** Scenario (g): the zod schema, the tool and the Agent. */
  define() {
    const { Agent, tool, Usage } = require('@openai/agents');
    const { z } = require('zod');
    const model = createModel(Usage);
    return () =>
      new Agent({
        name: 'adder',
        instructions: S.SYSTEM,
        model,
        tools: [
          tool({
            name: 'add',
            description: S.ADD_DESCRIPTION,
            parameters: z.object({
              a: z.number().describe('First addend'),
              b: z.number().describe('Second addend'),
            }),
            execute: async (args) => S.add(args),
          }),
        ],
      });
  },
  create() {
    const { Agent, Runner, tool, setTracingDisabled, Usage } = require('@openai/agents');
    const { z } = require('zod');
    setTracingDisabled(true);
    const model = createModel(Usage);
    const runner = new Runner({ tracingDisabled: true });
    const adder = new Agent({
      name: 'adder',
      instructions: S.SYSTEM,
      model,
      tools: [
        tool({
          name: 'add',
          description: S.ADD_DESCRIPTION,
          parameters: z.object({
            a: z.number().describe('First addend'),
            b: z.number().describe('Second addend'),
          }),
          execute: async (args) => S.add(args),
        }),
      ],
    });
    const forecaster = new Agent({
      name: 'forecaster',
      instructions: S.SYSTEM,
      model,
      outputType: z.object({ city: z.string(), celsius: z.int() }),
    });
    return {
      async runA() {
        const result = await runner.run(adder, S.PROMPT_A, { maxTurns: 10 });
        const toolResults = result.newItems
          .filter((item) => item.type === 'tool_call_output_item')
          .map((item) => item.output);
        return { output: result.finalOutput, toolResults };
      },
      async runB() {
        const result = await runner.run(forecaster, S.PROMPT_B, { maxTurns: 10 });
        return { output: result.finalOutput };
      },
    };
  },
};
