'use strict';
/**
 * The instant fake model in Golem's own Model shape ({ generate(request) → response }), shared by
 * the Golem rows and the hand-written baseline so both do exactly the same model-side work.
 */
const {
  CALLS,
  FINAL_TEXT,
  FORECAST_TEXT,
  STREAM_DELTAS,
  STREAM_TOKEN,
  STREAM_TEXT,
  STREAM_ARGS,
} = require('../scenario');

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

/** The history scenario's model: one more turn, answered with text (nothing to count). */
const historyModel = {
  name: 'bench-fake-history',
  async generate() {
    return {
      message: { role: 'assistant', content: FINAL_TEXT },
      usage: { inputTokens: USAGE_IN, outputTokens: USAGE_OUT },
      finishReason: 'stop',
    };
  },
};

function countToolResults(messages) {
  let results = 0;
  for (const message of messages) if (message.role === 'tool') results++;
  return results;
}

/**
 * The streaming scenarios' model (a Golem `StreamingModel`): awaits `onDelta` once per fresh
 * delta object, as Golem's provider adapters do, then returns the assembled response. `text`:
 * STREAM_DELTAS text deltas. `tool`: with no tool result yet, an `add` call whose arguments come
 * one character per delta; after it, "done" in one delta.
 */
function streamingModel(kind) {
  const usage = () => ({ inputTokens: USAGE_IN, outputTokens: USAGE_OUT });
  return {
    name: `bench-fake-stream-${kind}`,
    async generate() {
      throw new Error('the streaming scenarios stream');
    },
    async stream(request, onDelta) {
      if (kind === 'text') {
        for (let i = 0; i < STREAM_DELTAS; i++) await onDelta({ content: STREAM_TOKEN });
        const message = { role: 'assistant', content: STREAM_TEXT };
        return { message, usage: usage(), finishReason: 'stop' };
      }
      if (countToolResults(request.messages) > 0) {
        await onDelta({ content: FINAL_TEXT });
        const message = { role: 'assistant', content: FINAL_TEXT };
        return { message, usage: usage(), finishReason: 'stop' };
      }
      const { id, name } = CALLS[0];
      await onDelta({ toolCalls: [{ index: 0, id, name, argsFragment: STREAM_ARGS[0] }] });
      for (let i = 1; i < STREAM_ARGS.length; i++)
        await onDelta({ toolCalls: [{ index: 0, argsFragment: STREAM_ARGS[i] }] });
      const message = { role: 'assistant', toolCalls: [{ id, name, args: STREAM_ARGS }] };
      return { message, usage: usage(), finishReason: 'tool_calls' };
    },
  };
}

module.exports = { fakeModel, historyModel, streamingModel };
