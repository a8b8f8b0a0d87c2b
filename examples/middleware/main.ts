/**
 * Middleware: layers around every model call and tool execution. Default settings fill what the
 * request lacks, PII is redacted before the request leaves the process, each call and tool
 * execution is logged (secrets scrubbed), a custom middleware written inline times the calls, a
 * tool middleware audits tool arguments, and a decorated agent declares its own middleware with
 * `@UseMiddleware`. Offline: the model is a `FunctionModel` that shows what it received.
 */
import {
  Agent as EngineAgent,
  defineTool,
  type Middleware,
  type ModelRequest,
  type ModelResponse,
} from 'golem';
import { Agent, Instructions, UseMiddleware, agentFromClass } from 'golem/decorators';
import { defaultSettings, logRequests, redactPii } from 'golem/middleware';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** A fake clock, so durations are the same on every run (use the default `performance.now`). */
function fakeClock(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

/** A custom middleware written inline: times each model call and reports it. */
function timing(log: (line: string) => void, now: () => number): Middleware {
  return {
    name: 'timing',
    async generate(call, next): Promise<ModelResponse> {
      const started = now();
      const response = await next(call.request);
      log(
        `timing: ${call.model ?? 'model'} turn ${call.options?.scope?.turn ?? '?'} took ${now() - started} ms`,
      );
      return response;
    },
  };
}

/** A tool middleware: audits every tool execution's arguments and result size. */
function toolAudit(log: (line: string) => void): Middleware {
  return {
    name: 'toolAudit',
    async tool(call, next): Promise<string> {
      log(`audit: ${call.tool}(${JSON.stringify(call.args)}) for ${call.scope.agent}`);
      const result = await next(call.args);
      log(`audit: ${call.tool} returned ${result.length} characters`);
      return result;
    },
  };
}

/** The model: a lookup first, then an answer; it prints what it received. */
function supportModel(log: (line: string) => void): FunctionModel {
  return new FunctionModel(
    (request: ModelRequest) => {
      const last = request.messages.at(-1);
      log(`model received (${last?.role}): ${last?.content ?? ''}`);
      log(`model settings: ${JSON.stringify(request.settings ?? {})}`);
      return last?.role === 'user'
        ? toolCallResponse([{ id: 'c1', name: 'find_order', args: { email: 'ada@example.com' } }], {
            inputTokens: 40,
            outputTokens: 8,
          })
        : textResponse('Your order ships tomorrow.', { inputTokens: 60, outputTokens: 7 });
    },
    { name: 'function:support' },
  );
}

const findOrder = defineTool({
  name: 'find_order',
  description: 'Finds the latest order of a customer by e-mail.',
  schema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
  execute: (args) =>
    `order 1042 of ${(args as { email: string }).email}, card 4111 1111 1111 1111, ships tomorrow`,
});

@Agent({ model: 'default' })
@Instructions('You answer billing questions.')
@UseMiddleware(defaultSettings({ temperature: 0 }), redactPii({ roles: ['user'] }))
class BillingAgent {}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const logger = {
    info: (entry: object) => {
      log(`log: ${JSON.stringify(entry)}`);
    },
    error: (entry: object) => {
      log(`log error: ${JSON.stringify(entry)}`);
    },
  };
  // The first entry is outermost: logging and timing see the whole chain; redaction runs last,
  // so the provider (and nothing after it) sees the redacted text.
  const agent = new EngineAgent({
    name: 'support',
    model: supportModel(log),
    tools: [findOrder],
    modelSettings: { maxTokens: 200 },
    middleware: [
      logRequests({ logger, now: fakeClock(5) }),
      timing(log, fakeClock(3)),
      toolAudit(log),
      defaultSettings({ temperature: 0.2, maxTokens: 1024 }),
      redactPii({
        onFound: (found) => {
          log(`redacted: ${found.map((f) => f.kind).join(', ')}`);
        },
      }),
    ],
  });
  const result = await agent.run('Where is my order? I am ada@example.com, +44 20 7946 0958.');
  log(`output: ${result.output}`);
  log(`the run keeps the original prompt: ${result.messages[0]?.content ?? ''}`);

  log('--- @UseMiddleware on a decorated agent');
  const billing = agentFromClass(new BillingAgent(), {
    model: new FunctionModel((request) => {
      log(`model received: ${request.messages.at(-1)?.content ?? ''}`);
      log(`model settings: ${JSON.stringify(request.settings ?? {})}`);
      return textResponse('Refunds take five days.');
    }),
  });
  const refund = await billing.run('Refund card 4111-1111-1111-1111 please');
  log(`output: ${refund.output}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
