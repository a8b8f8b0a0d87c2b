/**
 * MCP client over stdio: `connectMcp` starts an MCP server as a child process (no shell, an
 * allow-listed environment), its tools become agent tools — namespaced with a prefix and merged
 * with local tools, a name clash being an error — and `close()` ends the child. The model is
 * scripted, so the run is offline and repeatable.
 */
import { join } from 'node:path';
import { Agent, defineTool } from 'golem';
import { connectMcp, mergeTools } from 'golem/mcp';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const orders = await connectMcp({
    name: 'orders',
    transport: { kind: 'stdio', command: process.execPath, args: [join(__dirname, 'server.js')] },
  });
  const pid = orders.pid;
  try {
    log(`connected to ${orders.server.name} ${orders.server.version}`);
    const today = defineTool({
      name: 'today',
      description: "Today's date.",
      schema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => '2025-06-18',
    });
    const tools = mergeTools([today], await orders.tools({ prefix: 'orders' }));
    for (const tool of tools) log(`tool ${tool.name}: ${tool.description}`);

    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'orders__lookup_order', args: { id: 'A-101' } }]),
      toolCallResponse([{ id: 'c2', name: 'orders__refund', args: { id: 'A-101' } }]),
      textResponse('Order A-101 (a gift card) was delivered; gift cards cannot be refunded.'),
    ]);
    const agent = new Agent({ model, tools, toolRetries: 1 });
    const result = await agent.run('Please refund order A-101.');
    for (const message of result.messages.filter((m) => m.role === 'tool'))
      log(`${message.toolName ?? ''} -> ${message.content ?? ''}`);
    log(`output: ${result.output}`);

    try {
      mergeTools([today], await orders.tools({ include: ['refund'] }), [
        defineTool({ name: 'refund', schema: { type: 'object' }, execute: () => 'local refund' }),
      ]);
    } catch (error) {
      log(`without a prefix: ${(error as Error).message}`);
    }
  } finally {
    await orders.close();
  }
  log(`closed; server process still running: ${String(pid !== undefined && isRunning(pid))}`);
}

/** Whether process `pid` exists (signal 0 probes without signalling). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
