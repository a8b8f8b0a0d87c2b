/**
 * Golem tools and agents served as an MCP server. The `@Tool` methods of a decorated agent
 * (`classTools`), a plain tool and a whole agent (a tool taking a prompt) are served over
 * Streamable HTTP on a loopback port; golem's own MCP client connects, and another golem agent
 * uses them — golem agent → MCP → golem agent. Arguments are validated by the DTO; a rejection
 * reaches the calling model as a correction. Then `golem mcp serve` serves the same class over
 * stdio. Offline: every model is scripted.
 */
import { join } from 'node:path';
import { Agent as EngineAgent, defineTool } from 'golem';
import { classTools } from 'golem/decorators';
import { connectMcp, createMcpServer, serveMcpHttp } from 'golem/mcp';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { WeatherAgent } from './weather.agent';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const travel = new EngineAgent({
    model: new ScriptedModel([textResponse('Pack light clothes and an umbrella.')]),
    instructions: 'You give packing advice.',
  });
  const server = createMcpServer({
    name: 'weather-desk',
    version: '1.0.0',
    tools: [
      ...classTools(new WeatherAgent()),
      defineTool({
        name: 'today',
        description: "Today's date.",
        schema: { type: 'object', properties: {}, additionalProperties: false },
        execute: () => '2025-06-18',
      }),
    ],
    agents: [{ agent: travel, name: 'packing_advice', description: 'Ask the packing adviser.' }],
  });
  const serving = await serveMcpHttp(server); // 127.0.0.1, a free port, path /mcp
  const client = await connectMcp({ name: 'desk', transport: { kind: 'http', url: serving.url } });
  try {
    const tools = await client.tools({ prefix: 'desk' });
    for (const tool of tools) log(`served: ${tool.name} — ${tool.description}`);

    const planner = new EngineAgent({
      model: new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'desk__forecast', args: { city: '', days: 9 } }]),
        toolCallResponse([{ id: 'c2', name: 'desk__forecast', args: { city: 'Lagos', days: 1 } }]),
        toolCallResponse([
          { id: 'c3', name: 'desk__packing_advice', args: { prompt: 'Lagos, 30°C, rain likely' } },
        ]),
        textResponse('Lagos will be 30°C tomorrow: pack light clothes and an umbrella.'),
      ]),
      tools,
      toolRetries: 1,
    });
    const result = await planner.run('I fly to Lagos tomorrow. What should I pack?');
    for (const message of result.messages.filter((m) => m.role === 'tool'))
      log(`${message.toolName ?? ''} -> ${message.content ?? ''}`);
    log(`output: ${result.output}`);
  } finally {
    await client.close();
    await serving.close();
  }

  // The same class from the command line: `golem mcp serve <module> <Export>` over stdio.
  const root = join(__dirname, '..', '..');
  const cli = await connectMcp({
    name: 'cli',
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [
        join(root, 'bin', 'golem.js'),
        'mcp',
        'serve',
        join(__dirname, 'weather.agent.ts'),
        'WeatherAgent',
      ],
      cwd: root,
    },
  });
  try {
    const tools = await cli.tools();
    log(`golem mcp serve: ${tools.map((t) => t.name).join(', ')}`);
    const forecast = tools.find((t) => t.name === 'forecast');
    if (forecast === undefined) throw new Error('no forecast tool');
    const ctx = {
      deps: undefined,
      signal: AbortSignal.timeout(10_000),
      callId: 'x',
      toolName: 'forecast',
      rawArgs: '{}',
      approved: false,
      retry: 0,
    };
    log(`forecast -> ${await forecast.execute({ city: 'Oslo' }, ctx)}`);
  } finally {
    await cli.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
