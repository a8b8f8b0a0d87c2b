'use strict';
/**
 * Golem with Standard Schema: `defineTool({ args: zodSchema })` and `schemaOutput(zodSchema)`, the
 * same zod schemas the AI SDK, OpenAI Agents and LangChain columns use. The JSON Schema comes from
 * zod (once, at definition); every call is validated by zod's `~standard.validate`.
 */
const S = require('../scenario');
const { GOLEM } = require('../golem');
const { fakeModel } = require('./golem-model');

function addArgs(z) {
  return z.object({
    a: z.number().describe('First addend'),
    b: z.number().describe('Second addend'),
  });
}

module.exports = {
  id: 'golem-zod',
  label: 'golem (zod)',
  /** Scenario (g): the zod schema, its JSON Schema, the tool and the agent. */
  define() {
    const { Agent, defineTool } = require(GOLEM);
    const { z } = require('zod');
    return () => {
      const addTool = defineTool({
        name: 'add',
        description: S.ADD_DESCRIPTION,
        args: addArgs(z),
        execute: S.add,
      });
      return new Agent({ model: fakeModel, instructions: S.SYSTEM, tools: [addTool] });
    };
  },
  create() {
    const { Agent, defineTool, schemaOutput } = require(GOLEM);
    const { z } = require('zod');
    const addTool = defineTool({
      name: 'add',
      description: S.ADD_DESCRIPTION,
      args: addArgs(z),
      execute: S.add,
    });
    const adder = new Agent({ model: fakeModel, instructions: S.SYSTEM, tools: [addTool] });
    const forecaster = new Agent({
      model: fakeModel,
      instructions: S.SYSTEM,
      ...schemaOutput(z.object({ city: z.string(), celsius: z.int() })),
    });
    return {
      async runA() {
        const result = await adder.run(S.PROMPT_A);
        return { output: result.output, toolResults: toolResults(result.messages) };
      },
      async runB() {
        const result = await forecaster.run(S.PROMPT_B);
        return { output: result.output };
      },
    };
  },
};

function toolResults(messages) {
  return messages.filter((m) => m.role === 'tool').map((m) => m.content);
}
