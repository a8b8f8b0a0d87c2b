/**
 * A stdio MCP server on the SDK's low-level Server class that lists two good tools (`lookup`,
 * `add`) and one hostile definition chosen by the first argument: `deep` (an input schema nested
 * 200 levels), `not-object` (an input schema of type string), `bad-output` (an output schema Ajv
 * cannot compile), `bad-name` (a name no provider accepts) or `nameless` (no name at all). The
 * hostile tool, if called anyway, answers `hostile tool ran`.
 */
'use strict';
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} = require('@modelcontextprotocol/sdk/types.js');

const mode = process.argv[2];
const server = new Server(
  { name: `hostile-${mode}`, version: '0.0.1' },
  { capabilities: { tools: {} } },
);

function deepSchema(levels) {
  let schema = { type: 'object' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

const hostile = {
  deep: { name: 'deep', description: 'Deep.', inputSchema: deepSchema(200) },
  'not-object': { name: 'not_object', description: 'A string.', inputSchema: { type: 'string' } },
  'bad-output': {
    name: 'bad_output',
    description: 'Bad output schema.',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { x: { type: 'nonsense' } } },
  },
  'bad-name': { name: 'bad name!', description: 'Spaces.', inputSchema: { type: 'object' } },
  nameless: { description: 'No name.', inputSchema: { type: 'object' } },
}[mode];

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'lookup',
      description: 'Look a word up.',
      inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    },
    hostile,
    {
      name: 'add',
      description: 'Add two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  if (name === 'lookup') return { content: [{ type: 'text', text: `${args.word}: a word` }] };
  if (name === 'add') {
    const sum = args.a + args.b;
    return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
  }
  return { content: [{ type: 'text', text: 'hostile tool ran' }] };
});

void server.connect(new StdioServerTransport());
