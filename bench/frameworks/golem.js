'use strict';
/**
 * An extra row, not a headline column: Golem given a hand-written validator (`defineTool` with a
 * JSON Schema and a plain-function `parse`; native `outputSchema` + `decodeJSON(check)`), while
 * every other column validates with zod. It shows what the validator alone costs.
 */
const S = require('../scenario');
const { GOLEM } = require('../golem');
const { fakeModel } = require('./golem-model');

module.exports = {
  id: 'golem-handwritten',
  label: 'golem (hand-written validator, extra)',
  /** Scenario (g): builds the (a) agent from nothing but the imported module. */
  define() {
    const { Agent, defineTool } = require(GOLEM);
    return () => {
      const addTool = defineTool({
        name: 'add',
        description: S.ADD_DESCRIPTION,
        schema: S.ADD_SCHEMA,
        parse: S.parseAddArgs,
        execute: S.add,
      });
      return new Agent({ model: fakeModel, instructions: S.SYSTEM, tools: [addTool] });
    };
  },
  create() {
    const { Agent, defineTool, decodeJSON } = require(GOLEM);
    const addTool = defineTool({
      name: 'add',
      description: S.ADD_DESCRIPTION,
      schema: S.ADD_SCHEMA,
      parse: S.parseAddArgs,
      execute: S.add,
    });
    const adder = new Agent({ model: fakeModel, instructions: S.SYSTEM, tools: [addTool] });
    const forecaster = new Agent({
      model: fakeModel,
      instructions: S.SYSTEM,
      outputSchema: S.FORECAST_SCHEMA,
      output: decodeJSON(S.parseForecast),
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
