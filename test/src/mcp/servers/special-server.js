/**
 * A stdio MCP server on the SDK's low-level Server class, for listings McpServer cannot produce:
 * paginated lists (`paged`), prototype-named tools (`proto`), an endless cursor (`loop`),
 * unportable or duplicate names (`invalid`), JSON-RPC error answers (`errors`; McpServer would
 * turn them into isError results) and a refused or unanswered handshake (`refuse-init`,
 * `silent-init`).
 * The mode is the first argument.
 */
'use strict';
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
} = require('@modelcontextprotocol/sdk/types.js');

const mode = process.argv[2];
const server = new Server(
  { name: `special-${mode}`, version: '0.0.1' },
  { capabilities: { tools: {} } },
);
const tool = (name, description = `Tool ${name}.`) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});
const cursors = [];

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const cursor = request.params?.cursor;
  cursors.push(request.params ?? null);
  switch (mode) {
    case 'paged':
      return cursor === undefined
        ? { tools: [tool('a'), tool('b')], nextCursor: 'c1' }
        : { tools: [tool('c'), tool('cursors')] };
    case 'proto':
      return {
        tools: ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'].map((n) =>
          tool(n),
        ),
      };
    case 'loop':
      return { tools: [tool(`t${cursors.length}`)], nextCursor: 'again' };
    case 'invalid':
      return { tools: [tool('ok'), tool('bad.name'), tool('x'.repeat(70))] };
    case 'errors':
      return { tools: [tool('protocol_error'), tool('ok')] };
    case 'duplicate':
      return { tools: [tool('twin'), tool('twin')] };
    default:
      return { tools: [] };
  }
});

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'protocol_error') throw new McpError(ErrorCode.InternalError, 'database offline');
  if (name === 'cursors') return { content: [{ type: 'text', text: JSON.stringify(cursors) }] };
  return {
    content: [{ type: 'text', text: `${name} called with ${JSON.stringify(args ?? null)}` }],
  };
});

if (mode === 'silent-init') {
  server.setRequestHandler(InitializeRequestSchema, () => new Promise(() => {}));
}

if (mode === 'refuse-init') {
  server.setRequestHandler(InitializeRequestSchema, async () => {
    throw new McpError(ErrorCode.InvalidParams, 'unsupported protocol version');
  });
}

void server.connect(new StdioServerTransport());
