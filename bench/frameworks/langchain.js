'use strict';
/**
 * LangChain (`langchain` + `@langchain/core`): `createAgent` with a zod-typed `tool`, and
 * `providerStrategy` (native structured output) for scenario (b). The chat model is a
 * `BaseChatModel` like `@langchain/core`'s fake chat models (its `bindTools` converts tool schemas
 * to JSON Schema, as they and real providers do) but stateless, so concurrent runs are safe.
 */
const S = require('../scenario');

function modelClass() {
  const { BaseChatModel } = require('@langchain/core/language_models/chat_models');
  const { AIMessage } = require('@langchain/core/messages');
  const { toJsonSchema } = require('@langchain/core/utils/json_schema');

  class BenchChatModel extends BaseChatModel {
    _llmType() {
      return 'bench-fake';
    }

    _combineLLMOutput() {
      return [];
    }

    bindTools(tools, kwargs) {
      const specs = tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: toJsonSchema(t.schema) },
      }));
      return this.withConfig({ tools: specs, ...kwargs });
    }

    async _generate(messages, options) {
      const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
      let message;
      if (
        options.response_format !== undefined ||
        options.ls_structured_output_format !== undefined
      ) {
        message = new AIMessage({ content: S.FORECAST_TEXT, usage_metadata: usage });
      } else {
        let results = 0;
        for (const m of messages) if (m.type === 'tool') results++;
        const call = S.CALLS[results];
        message =
          call === undefined
            ? new AIMessage({ content: S.FINAL_TEXT, usage_metadata: usage })
            : new AIMessage({
                content: '',
                tool_calls: [
                  { id: call.id, name: call.name, args: JSON.parse(call.args), type: 'tool_call' },
                ],
                usage_metadata: usage,
              });
      }
      return {
        generations: [
          { text: typeof message.content === 'string' ? message.content : '', message },
        ],
      };
    }
  }

  return BenchChatModel;
}

function create() {
  const { createAgent, tool, providerStrategy } = require('langchain');
  const { z } = require('zod');
  const BenchChatModel = modelClass();
  const model = new BenchChatModel({});
  const add = tool(async (args) => S.add(args), {
    name: 'add',
    description: S.ADD_DESCRIPTION,
    schema: z.object({
      a: z.number().describe('First addend'),
      b: z.number().describe('Second addend'),
    }),
  });
  const adder = createAgent({ model, tools: [add], systemPrompt: S.SYSTEM });
  const forecaster = createAgent({
    model,
    tools: [],
    systemPrompt: S.SYSTEM,
    responseFormat: providerStrategy(z.object({ city: z.string(), celsius: z.int() })),
  });
  return {
    async runA() {
      const state = await adder.invoke({ messages: [{ role: 'user', content: S.PROMPT_A }] });
      const messages = state.messages;
      const last = messages[messages.length - 1];
      const toolResults = messages.filter((m) => m.type === 'tool').map((m) => m.content);
      return { output: last.content, toolResults };
    },
    async runB() {
      const state = await forecaster.invoke({ messages: [{ role: 'user', content: S.PROMPT_B }] });
      return { output: state.structuredResponse };
    },
  };
}

/** Scenario (g): the zod schema, the tool and `createAgent` (which compiles its graph). */
function define() {
  const { createAgent, tool } = require('langchain');
  const { z } = require('zod');
  const model = new (modelClass())({});
  return () =>
    createAgent({
      model,
      tools: [
        tool(async (args) => S.add(args), {
          name: 'add',
          description: S.ADD_DESCRIPTION,
          schema: z.object({
            a: z.number().describe('First addend'),
            b: z.number().describe('Second addend'),
          }),
        }),
      ],
      systemPrompt: S.SYSTEM,
    });
}

module.exports = { id: 'langchain', label: 'langchain', create, define };
