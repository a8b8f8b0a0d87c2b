'use strict';
/**
 * The OpenTelemetry SDK's own floor for scenario (a), through golem's instrumentation port: the
 * thinnest `RunInstrumentation` that produces the same span tree as `golem/otel` — an
 * `invoke_agent` span, a `chat` span per model call and an `execute_tool` span per tool call,
 * each started with as many attributes as golem/otel sets (constant objects built once), each
 * model call and tool run inside its span's context (`context.with`, as golem/otel does so that
 * HTTP spans and nested runs become children). No conventions, no usage, no cost, no content.
 * What a traced run costs above this is golem/otel's own share.
 */

/** Constant attribute objects with `n` keys, built once. */
const attrs = (n) =>
  Object.freeze(Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, i])));
// The counts golem/otel sets in scenario (a), 6 spans per run: invoke_agent 5 at the start + 4 at
// the end; 3 × chat 5 at the start + 3 at the end; 2 × execute_tool 6.
const RUN_START = attrs(5);
const RUN_END = attrs(4);
const CHAT_START = attrs(5);
const CHAT_END = attrs(3);
const TOOL_START = attrs(6);

/** The floor instrumentation on `tracer` (`api`: the `@opentelemetry/api` golem resolves). */
function floorInstrumentation(api, tracer) {
  return {
    startRun() {
      const parent = api.context.active();
      const run = tracer.startSpan('invoke_agent agent', { attributes: RUN_START }, parent);
      const runContext = api.trace.setSpan(parent, run);
      let chat;
      let chatContext;
      const tools = new Map();
      return {
        observe(event) {
          switch (event.kind) {
            case 'model_start':
              chat = tracer.startSpan('chat model', { attributes: CHAT_START }, runContext);
              chatContext = api.trace.setSpan(runContext, chat);
              return;
            case 'model_end':
              chat.setAttributes(CHAT_END);
              chat.end();
              return;
            case 'tool_start': {
              const span = tracer.startSpan(
                'execute_tool add',
                { attributes: TOOL_START },
                runContext,
              );
              tools.set(event.callId, { span, context: api.trace.setSpan(runContext, span) });
              return;
            }
            case 'tool_end':
              tools.get(event.callId)?.span.end();
              tools.delete(event.callId);
              return;
          }
        },
        within(scope, call) {
          const active = scope.kind === 'model' ? chatContext : tools.get(scope.callId)?.context;
          return api.context.with(active ?? runContext, call);
        },
        end() {
          run.setAttributes(RUN_END);
          run.end();
        },
      };
    },
  };
}

module.exports = { floorInstrumentation };
