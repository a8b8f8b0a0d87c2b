/**
 * A golem MCP server over stdio (run through @swc-node/register by server.test.ts): one plain
 * tool and one agent served with `createMcpServer` + `serveMcpStdio`.
 */
import { Agent, defineTool } from '../../../../src/core/index';
import { textResponse } from '../../../../src/testing/index';
import { ScriptedModel } from '../../../../src/testing/index';
import { createMcpServer, serveMcpStdio } from '../../../../src/mcp/index';

const server = createMcpServer({
  name: 'golem-stdio',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'shout',
      description: 'Upper-case the text.',
      schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: (args) => (args as { text: string }).text.toUpperCase(),
    }),
  ],
  agents: [
    {
      agent: new Agent({ model: new ScriptedModel([textResponse('forty-two')]) }),
      name: 'oracle',
      description: 'Answers anything.',
    },
  ],
});
void serveMcpStdio(server);
