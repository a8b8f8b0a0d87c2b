'use strict';
/**
 * Golem, decorated: the classes of decorated-agents.ts (class-validator DTOs, `@Tool`,
 * `@Output`), compiled by `agentFromClass`. Needs the built `golem/decorators`.
 */
const S = require('../scenario');
const { GOLEM_DECORATORS, DECORATED_OUTPUT } = require('../golem');
const { fakeModel } = require('./golem-model');

module.exports = {
  id: 'golem-decorated',
  label: 'golem (decorated)',
  /**
   * Scenario (g): declares fresh classes (the decorators run), then compiles one with
   * `agentFromClass` (never compiled before, so nothing is cached). Returns both parts.
   */
  define() {
    const { agentFromClass } = require(GOLEM_DECORATORS);
    const { defineAdderAgent } = require(DECORATED_OUTPUT);
    return {
      declare: () => defineAdderAgent(),
      compile: (Adder) => agentFromClass(new Adder(), { model: fakeModel }),
    };
  },
  create() {
    const { agentFromClass } = require(GOLEM_DECORATORS);
    const { defineAdderAgent, defineForecastAgent } = require(DECORATED_OUTPUT);
    const Adder = defineAdderAgent();
    const Forecaster = defineForecastAgent();
    const adder = agentFromClass(new Adder(), { model: fakeModel });
    const forecaster = agentFromClass(new Forecaster(), { model: fakeModel });
    return {
      async runA() {
        const result = await adder.run(S.PROMPT_A);
        return {
          output: result.output,
          toolResults: result.messages.filter((m) => m.role === 'tool').map((m) => m.content),
        };
      },
      async runB() {
        const result = await forecaster.run(S.PROMPT_B);
        // A validated Forecast instance; compare its own fields as a plain object.
        return { output: { ...result.output } };
      },
    };
  },
};
