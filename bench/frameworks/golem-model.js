'use strict';
/**
 * The instant fake model in Golem's own Model shape ({ generate(request) → response }), shared by
 * the Golem rows and the hand-written baseline so both do exactly the same model-side work.
 */
const { CALLS, FINAL_TEXT, FORECAST_TEXT } = require('../scenario');

const USAGE_IN = 10;
const USAGE_OUT = 5;

function turn(request) {
  const usage = { inputTokens: USAGE_IN, outputTokens: USAGE_OUT };
  if (request.outputSchema !== undefined)
    return { message: { role: 'assistant', content: FORECAST_TEXT }, usage, finishReason: 'stop' };
  let results = 0;
  for (const message of request.messages) if (message.role === 'tool') results++;
  const call = CALLS[results];
  if (call === undefined)
    return { message: { role: 'assistant', content: FINAL_TEXT }, usage, finishReason: 'stop' };
  return {
    message: { role: 'assistant', toolCalls: [{ id: call.id, name: call.name, args: call.args }] },
    usage,
    finishReason: 'tool_calls',
  };
}

/** A Golem `Model`: no recording, no copying, answers on the next microtask. */
const fakeModel = {
  name: 'bench-fake',
  async generate(request) {
    return turn(request);
  },
};

module.exports = { fakeModel };
