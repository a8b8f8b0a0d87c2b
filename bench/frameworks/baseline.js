'use strict';
/**
 * The hand-written baseline: a plain async loop over the same fake model, a plain tool table and
 * the same plain-function validation Golem's tools use. What a user would write without a
 * framework; the floor every framework's overhead is measured against.
 */
const S = require('../scenario');
const { fakeModel } = require('./golem-model');

const TOOLS = new Map([['add', { parse: S.parseAddArgs, execute: S.add }]]);
const SPECS = [{ name: 'add', description: S.ADD_DESCRIPTION, schema: S.ADD_SCHEMA }];
const MAX_TURNS = 10;

async function loop(prompt, tools, outputSchema) {
  const messages = [
    { role: 'system', content: S.SYSTEM },
    { role: 'user', content: prompt },
  ];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { messages, tools };
    if (outputSchema !== undefined) request.outputSchema = outputSchema;
    const response = await fakeModel.generate(request);
    const message = response.message;
    messages.push(message);
    const calls = message.toolCalls;
    if (calls === undefined || calls.length === 0) return { text: message.content ?? '', messages };
    for (const call of calls) {
      const tool = TOOLS.get(call.name);
      if (tool === undefined) throw new Error(`unknown tool ${call.name}`);
      const args = tool.parse(JSON.parse(call.args));
      const content = await tool.execute(args);
      messages.push({ role: 'tool', content, toolCallId: call.id, toolName: call.name });
    }
  }
  throw new Error('turn limit reached');
}

module.exports = {
  id: 'baseline',
  label: 'baseline',
  create() {
    return {
      async runA() {
        const { text, messages } = await loop(S.PROMPT_A, SPECS);
        return {
          output: text,
          toolResults: messages.filter((m) => m.role === 'tool').map((m) => m.content),
        };
      },
      async runB() {
        const { text } = await loop(S.PROMPT_B, [], S.FORECAST_SCHEMA);
        return { output: S.parseForecast(JSON.parse(text)) };
      },
    };
  },
};
