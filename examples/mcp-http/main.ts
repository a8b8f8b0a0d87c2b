/**
 * MCP client over Streamable HTTP: `connectMcp({ transport: { kind: 'http', url, headers } })`
 * talks to an MCP endpoint — here a knowledge-base server started on 127.0.0.1 inside main — and
 * its tools become agent tools. The model is scripted, so the run is offline and repeatable.
 */
import { Agent } from 'golem';
import { connectMcp } from 'golem/mcp';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { startKnowledgeBase } from './server';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = await startKnowledgeBase();
  try {
    const kb = await connectMcp({
      name: 'kb',
      transport: {
        kind: 'http',
        url: server.url,
        headers: { Authorization: 'Bearer example-token' },
      },
      timeout: 10_000, // connecting and listing
    });
    try {
      log(`connected to ${kb.server.name} ${kb.server.version}`);
      const tools = await kb.tools({ prefix: 'kb', timeout: 5_000, maxResultBytes: 4_096 });
      for (const tool of tools) log(`tool ${tool.name}: ${JSON.stringify(tool.schema.properties)}`);

      const model = new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'kb__search', args: { query: 'time' } }]),
        toolCallResponse([{ id: 'c2', name: 'kb__read_article', args: { slug: 'timeout' } }]),
        toolCallResponse([{ id: 'c3', name: 'kb__read_article', args: { slug: 'timeouts' } }]),
        textResponse('Use toolTimeout for each tool call and runTimeout for the whole run.'),
      ]);
      const agent = new Agent({ model, tools, toolRetries: 1 });
      const result = await agent.run('How do I bound how long things take?');
      for (const message of result.messages.filter((m) => m.role === 'tool'))
        log(`${message.toolName ?? ''} -> ${message.content ?? ''}`);
      log(`output: ${result.output}`);
    } finally {
      await kb.close(); // ends the HTTP session (DELETE)
    }
    log(
      `every request carried the token: ${String(server.tokens.every((t) => t === 'Bearer example-token'))}`,
    );
  } finally {
    await server.stop();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
