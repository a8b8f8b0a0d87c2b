'use strict';
/**
 * The hand-written loop: what a user writes without a framework, over the same fake models, with
 * the same zod schemas the framework columns validate with (`safeParse` of the parsed JSON; a
 * rejection goes back to the model as the tool's result, as a framework's retry would). The floor
 * every framework's overhead is measured against.
 */
const S = require('../scenario');
const { fakeModel, historyModel, streamingModel } = require('./golem-model');

const MAX_TURNS = 10;

function create() {
  const { z } = require('zod');
  const addArgs = S.addArgsSchema(z);
  const forecast = S.forecastSchema(z);
  const tools = new Map([['add', { args: addArgs, execute: S.add }]]);
  const specs = [{ name: 'add', description: S.ADD_DESCRIPTION, schema: z.toJSONSchema(addArgs) }];
  const forecastJson = z.toJSONSchema(forecast);
  const history = S.buildHistory(SHAPE);
  const textModel = streamingModel('text');
  const toolModel = streamingModel('tool');

  async function callTool(call) {
    const tool = tools.get(call.name);
    if (tool === undefined) return `unknown tool ${call.name}`;
    let parsed;
    try {
      parsed = tool.args.safeParse(JSON.parse(call.args));
    } catch (error) {
      return `invalid JSON arguments: ${error.message}`;
    }
    if (!parsed.success) return `invalid arguments: ${parsed.error.message}`;
    return await tool.execute(parsed.data);
  }

  /** The tool loop; `turn(request)` is one model call returning a Golem-shaped response. */
  async function loop(messages, toolSpecs, turn) {
    for (let i = 0; i < MAX_TURNS; i++) {
      const response = await turn({ messages, tools: toolSpecs });
      const message = response.message;
      messages.push(message);
      const calls = message.toolCalls;
      if (calls === undefined || calls.length === 0) return message.content ?? '';
      for (const call of calls) {
        const content = await callTool(call);
        messages.push({ role: 'tool', content, toolCallId: call.id, toolName: call.name });
      }
    }
    throw new Error('turn limit reached');
  }

  const start = (prompt) => [
    { role: 'system', content: S.SYSTEM },
    { role: 'user', content: prompt },
  ];
  const toolResults = (messages) => messages.filter((m) => m.role === 'tool').map((m) => m.content);
  const generate = (request) => fakeModel.generate(request);

  /** The hand-written callback: forwards each fragment to the consumer's sink. */
  const forward = (sink) => (delta) => {
    if (delta.content !== undefined) sink.push(delta.content);
    if (delta.toolCalls !== undefined)
      for (const call of delta.toolCalls)
        if (call.argsFragment !== undefined) sink.push(call.argsFragment);
  };

  return {
    async runA() {
      const messages = start(S.PROMPT_A);
      const output = await loop(messages, specs, generate);
      return { output, toolResults: toolResults(messages) };
    },
    async runB() {
      const response = await fakeModel.generate({
        messages: start(S.PROMPT_B),
        tools: [],
        outputSchema: forecastJson,
      });
      return { output: forecast.parse(JSON.parse(response.message.content)) };
    },
    async runHistory() {
      const messages = [
        { role: 'system', content: S.SYSTEM },
        ...history,
        { role: 'user', content: S.PROMPT_HISTORY },
      ];
      const output = await loop(messages, specs, (request) => historyModel.generate(request));
      return { output };
    },
    async runStreamText() {
      const sink = S.makeSink();
      const messages = start(S.PROMPT_A);
      const output = await loop(messages, specs, (request) =>
        textModel.stream(request, forward(sink)),
      );
      return { output, received: sink.received };
    },
    async runStreamTool() {
      const sink = S.makeSink();
      const messages = start(S.PROMPT_A);
      const output = await loop(messages, specs, (request) =>
        toolModel.stream(request, forward(sink)),
      );
      return { output, toolResults: toolResults(messages), received: sink.received };
    },
  };
}

/** Golem's message shape (the loop uses it too: the fake models speak it). */
const SHAPE = {
  user: (content) => ({ role: 'user', content }),
  call: (id, a, b) => ({
    role: 'assistant',
    toolCalls: [{ id, name: 'add', args: JSON.stringify({ a, b }) }],
  }),
  result: (id, content) => ({ role: 'tool', content, toolCallId: id, toolName: 'add' }),
  assistant: (content) => ({ role: 'assistant', content }),
};

module.exports = { id: 'loop', label: 'hand-written loop (zod)', create, SHAPE };
