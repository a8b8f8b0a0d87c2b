/**
 * The example's MCP server: an order desk built with the official SDK (McpServer over stdio).
 * main.ts starts it as a child process; any MCP server would do (`npx some-mcp-server`, a Python
 * server…). Plain CommonJS so it starts quickly without a TypeScript loader.
 */
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const orders = {
  'A-100': { item: 'desk lamp', status: 'delivered', refundable: true },
  'A-101': { item: 'gift card', status: 'delivered', refundable: false },
};

const server = new McpServer({ name: 'order-desk', version: '1.0.0' });

server.registerTool(
  'lookup_order',
  {
    description: 'Look up an order by id.',
    inputSchema: { id: z.string().describe('Order id, e.g. A-100') },
  },
  async ({ id }) => {
    const order = orders[id];
    if (order === undefined)
      return { isError: true, content: [{ type: 'text', text: `no order ${id}` }] };
    return { content: [{ type: 'text', text: `${id}: ${order.item}, ${order.status}` }] };
  },
);

server.registerTool(
  'refund',
  { description: 'Refund an order.', inputSchema: { id: z.string() } },
  async ({ id }) => {
    const order = orders[id];
    if (order === undefined || !order.refundable) {
      // isError results reach the agent as a ModelRetry: the model reads why and can react.
      return { isError: true, content: [{ type: 'text', text: `order ${id} cannot be refunded` }] };
    }
    return { content: [{ type: 'text', text: `refund issued for ${id}` }] };
  },
);

void server.connect(new StdioServerTransport());
