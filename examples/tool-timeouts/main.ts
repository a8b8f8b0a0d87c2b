/**
 * Tool timeouts: a tool's `timeout` (or the agent's `toolTimeout`) bounds one execution. The tool
 * receives `ctx.signal`, which aborts at the deadline; a tool must honour it so its work stops.
 * A timed-out call fails the run at the `tool` stage with a deadline error in the cause chain.
 */
import {
  Agent,
  RunError,
  ToolError,
  defineTool,
  findError,
  isCancellation,
  isDeadlineExceeded,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Stands in for slow I/O that accepts an AbortSignal, like `fetch(url, { signal })`. */
function slowLookup(signal: AbortSignal): Promise<string> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

const searchArchive = defineTool({
  name: 'search_archive',
  description: 'Search the (very slow) archive.',
  schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  // This tool's own deadline, in ms; it takes precedence over the agent's toolTimeout.
  timeout: 5,
  execute: (_args, ctx) => slowLookup(ctx.signal),
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'search_archive', args: { query: 'treaty of 1884' } }]),
    textResponse('never reached'),
  ]);
  // The agent default (one minute) would apply to tools without a timeout of their own.
  const agent = new Agent({ model, tools: [searchArchive], toolTimeout: 60_000 });

  try {
    await agent.run('Find the 1884 treaty.');
    throw new Error('expected the tool deadline to fail the run');
  } catch (error) {
    if (!RunError.is(error)) throw error;
    log(`stage: ${error.stage}`);
    log(`isDeadlineExceeded: ${isDeadlineExceeded(error)}`);
    log(`isCancellation: ${isCancellation(error)}`);
    // Walk the cause chain for the typed tool error naming the call.
    const toolError = findError(error, ToolError.is);
    log(`tool: ${toolError?.toolName ?? '?'} (call ${toolError?.callId ?? '?'})`);
    log(`message: ${error.message}`);
    log(`model calls: ${model.calls}`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
