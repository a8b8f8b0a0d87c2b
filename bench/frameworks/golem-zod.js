'use strict';
/**
 * Golem, plain path, with the zod schemas every zod column uses: `defineTool({ args: zodSchema })`
 * and `schemaOutput(zodSchema)`. The JSON Schema comes from zod (once, at definition); every call
 * is validated by zod's `~standard.validate`. Streaming: `runStream` read three ways — the
 * `onDelta` callback, `for await` over the deltas, and the typed `events` view (n/a when the
 * build has none).
 */
const S = require('../scenario');
const { GOLEM } = require('../golem');
const { SHAPE } = require('./loop');
const { fakeModel, historyModel, streamingModel } = require('./golem-model');

/** Thrown by a column that the build does not offer; the bench prints it as n/a. */
class Unavailable extends Error {
  constructor(message) {
    super(message);
    this.unavailable = true;
  }
}

function forwardDelta(sink, delta) {
  if (delta.content !== undefined) sink.push(delta.content);
  if (delta.toolCalls !== undefined)
    for (const call of delta.toolCalls)
      if (call.argsFragment !== undefined) sink.push(call.argsFragment);
}

function forwardEvent(sink, event) {
  if (event.type === 'text-delta') sink.push(event.text);
  else if (event.type === 'tool-call-delta') sink.push(event.argsDelta);
}

const toolResults = (messages) => messages.filter((m) => m.role === 'tool').map((m) => m.content);

/** The three ways to read a streaming run, for one agent. */
function streamReaders(agent) {
  const done = async (stream, sink) => {
    const result = await stream.result;
    return {
      output: result.output,
      toolResults: toolResults(result.messages),
      received: sink.received,
    };
  };
  return {
    async callback(prompt) {
      const sink = S.makeSink();
      const stream = agent.runStream(prompt, { onDelta: (delta) => forwardDelta(sink, delta) });
      return done(stream, sink);
    },
    async iterate(prompt) {
      const sink = S.makeSink();
      const stream = agent.runStream(prompt);
      for await (const delta of stream) forwardDelta(sink, delta);
      return done(stream, sink);
    },
    async events(prompt) {
      const sink = S.makeSink();
      const stream = agent.runStream(prompt);
      if (stream.events === undefined) {
        await stream.result;
        throw new Unavailable('runStream(...).events is not in this build');
      }
      for await (const event of stream.events) forwardEvent(sink, event);
      return done(stream, sink);
    },
  };
}

/** Three middleware that pass every call on unchanged: the chain's own cost (issue 30). */
const passThrough = () =>
  [1, 2, 3].map((n) => ({ name: `pass-${n}`, generate: (call, next) => next(call.request) }));

/** `golem/middleware`'s in-memory response cache, or undefined when the build has none. */
function responseCache() {
  const { DIST } = require('../golem');
  try {
    return require(require('node:path').join(DIST, 'src', 'middleware', 'index.js')).responseCache;
  } catch {
    return undefined;
  }
}

function create() {
  const { Agent, defineTool, schemaOutput } = require(GOLEM);
  const { z } = require('zod');
  const define = (model, middleware) =>
    new Agent({
      model,
      ...(middleware !== undefined && { middleware }),
      instructions: S.SYSTEM,
      tools: [
        defineTool({
          name: 'add',
          description: S.ADD_DESCRIPTION,
          args: S.addArgsSchema(z),
          execute: S.add,
        }),
      ],
    });
  const adder = define(fakeModel);
  const layered = define(fakeModel, passThrough());
  const cache = responseCache();
  // Every s1 run sends the same three requests: after the first run, each call is a cache hit.
  const cached = cache === undefined ? undefined : define(fakeModel, [cache()]);
  const continuer = define(historyModel);
  const text = streamReaders(define(streamingModel('text')));
  const tool = streamReaders(define(streamingModel('tool')));
  const history = S.buildHistory(SHAPE);
  // The documented way to carry a history run after run (issue 35): a checked history, made
  // once (validated, copied, repaired, frozen); a build without `Agent.history` gets the array.
  const checked = typeof Agent.history === 'function' ? Agent.history(history) : history;
  const forecaster = new Agent({
    model: fakeModel,
    instructions: S.SYSTEM,
    ...schemaOutput(S.forecastSchema(z)),
  });
  return {
    async runA() {
      const result = await adder.run(S.PROMPT_A);
      return { output: result.output, toolResults: toolResults(result.messages) };
    },
    /** s1 with a chain of three pass-through middleware. */
    async runAMiddleware3() {
      const result = await layered.run(S.PROMPT_A);
      return { output: result.output, toolResults: toolResults(result.messages) };
    },
    /** s1 with every model call answered by the in-memory response cache. */
    async runACached() {
      if (cached === undefined) throw new Unavailable('golem/middleware is not in this build');
      const result = await cached.run(S.PROMPT_A);
      return { output: result.output, toolResults: toolResults(result.messages) };
    },
    async runB() {
      const result = await forecaster.run(S.PROMPT_B);
      return { output: result.output };
    },
    async runHistory() {
      const result = await continuer.run(S.PROMPT_HISTORY, { history: checked });
      return { output: result.output };
    },
    /** The same history as a plain array: copied, validated and repaired on every run. */
    async runHistoryPlain() {
      const result = await continuer.run(S.PROMPT_HISTORY, { history });
      return { output: result.output };
    },
    /** The same run with no history: what the history's carrying is measured over. */
    async runHistoryEmpty() {
      const result = await continuer.run(S.PROMPT_HISTORY);
      return { output: result.output };
    },
    runStreamText: () => text.iterate(S.PROMPT_A),
    runStreamTextCallback: () => text.callback(S.PROMPT_A),
    runStreamTextEvents: () => text.events(S.PROMPT_A),
    runStreamTool: () => tool.iterate(S.PROMPT_A),
    runStreamToolCallback: () => tool.callback(S.PROMPT_A),
    runStreamToolEvents: () => tool.events(S.PROMPT_A),
    /** Scenario (g): the zod schema, its JSON Schema, the tool and the agent. */
    runDefine() {
      return define(fakeModel);
    },
  };
}

module.exports = { id: 'golem', label: 'golem (zod)', create, Unavailable };
