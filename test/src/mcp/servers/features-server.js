/**
 * A stdio MCP server for the client features the reference servers do not exercise in a bounded
 * way: paginated resources, templates and prompts (low-level handlers), a large resource, quick
 * task tools (the SDK's experimental task API, 20 ms polls), a call that records the client's
 * cancellation, progress and log lines within one call. Mode `no-tasks`: a tool marked task-only
 * while the server declares no task support.
 */
'use strict';
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const {
  InMemoryTaskStore,
  InMemoryTaskMessageQueue,
} = require('@modelcontextprotocol/sdk/experimental/tasks');
const {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  ListPromptsRequestSchema,
  GetPromptRequestSchema,
  ListToolsRequestSchema,
} = require('@modelcontextprotocol/sdk/types.js');
const { z } = require('zod');

const mode = process.argv[2] ?? 'full';
const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: 'features', version: '1.0.0' },
  {
    capabilities: {
      tools: {},
      logging: {},
      resources: {},
      prompts: {},
      ...(mode !== 'no-tasks' && { tasks: { requests: { tools: { call: {} } }, cancel: {} } }),
    },
    taskStore,
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  },
);
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const cancellations = [];

server.registerTool(
  'echo',
  { description: 'Echo.', inputSchema: { text: z.string() } },
  async ({ text: t }) => text(t),
);
server.registerTool(
  'wait_cancel',
  { description: 'Wait until cancelled.' },
  (extra) =>
    new Promise((resolve) => {
      const record = () => {
        cancellations.push({ requestId: extra.requestId, reason: String(extra.signal.reason) });
        resolve(text('cancelled'));
      };
      // A server busy for the whole call timeout reads the call and its cancellation together:
      // the SDK aborts the signal before this handler runs, and no abort event follows.
      if (extra.signal.aborted) {
        record();
        return;
      }
      extra.signal.addEventListener('abort', record);
      // Tells a caller that asked for progress that the call is now waiting here.
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        void extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 0, message: 'waiting' },
        });
      }
    }),
);
server.registerTool('cancellations', { description: 'What was cancelled.' }, async () =>
  text(JSON.stringify(cancellations)),
);
server.registerTool('steps', { description: 'Progress and logs, then answer.' }, async (extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= 3; i++) {
    if (token !== undefined) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: i, total: 3, message: `step ${i}` },
      });
    }
  }
  await server.sendLoggingMessage({ level: 'warning', logger: 'steps', data: 'halfway' });
  return text('done in 3 steps');
});

if (mode === 'no-tasks') {
  // A tool that claims to need tasks, from a server that declares none.
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'slow_job', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
    ],
  }));
} else {
  const taskTool = (name, finish) =>
    server.experimental.tasks.registerToolTask(
      name,
      {
        description: `Task ${name}.`,
        inputSchema: { n: z.number() },
        execution: { taskSupport: 'required' },
      },
      {
        createTask: async ({ n }, extra) => {
          const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
          if (finish !== 'hang') {
            setTimeout(() => {
              if (finish === 'fail')
                void extra.taskStore.updateTaskStatus(task.taskId, 'failed', 'disk full');
              else
                void extra.taskStore.storeTaskResult(
                  task.taskId,
                  'completed',
                  text(`squared: ${n * n}`),
                );
            }, 30);
          }
          return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
      },
    );
  taskTool('square', 'ok');
  taskTool('broken_job', 'fail');
  taskTool('endless_job', 'hang');
}

// Paginated resources, templates and prompts (McpServer does not paginate).
const pages = (items, cursor, size = 2) => {
  const start = cursor === undefined ? 0 : Number(cursor);
  const next = start + size < items.length ? String(start + size) : undefined;
  return { slice: items.slice(start, start + size), next };
};
const resources = ['a', 'b', 'c'].map((id) => ({
  uri: `mem://doc/${id}`,
  name: `doc ${id}`,
  mimeType: 'text/plain',
}));
resources.push({ uri: 'mem://big', name: 'big', mimeType: 'text/plain' });
resources.push({ uri: 'mem://logo', name: 'logo', mimeType: 'image/png' });
server.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
  const { slice, next } = pages(resources, request.params?.cursor);
  return { resources: slice, ...(next !== undefined && { nextCursor: next }) };
});
server.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
  resourceTemplates: [{ uriTemplate: 'mem://doc/{id}', name: 'doc by id' }],
}));
server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const { uri } = request.params;
  if (uri === 'mem://big')
    return { contents: [{ uri, mimeType: 'text/plain', text: 'z'.repeat(5000) }] };
  if (uri === 'mem://logo') {
    return {
      contents: [
        { uri, mimeType: 'image/png', blob: Buffer.from([137, 80, 78, 71]).toString('base64') },
      ],
    };
  }
  return { contents: [{ uri, mimeType: 'text/plain', text: `text of ${uri}` }] };
});
const prompts = ['p1', 'p2', 'p3'].map((name) => ({
  name,
  description: `Prompt ${name}.`,
  arguments: [{ name: 'topic', required: name === 'p1' }],
}));
server.server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
  const { slice, next } = pages(prompts, request.params?.cursor);
  return { prompts: slice, ...(next !== undefined && { nextCursor: next }) };
});
server.server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
  description: `Prompt ${request.params.name}.`,
  messages: [
    {
      role: 'user',
      content: {
        type: 'text',
        text: `Tell me about ${request.params.arguments?.topic ?? 'nothing'}.`,
      },
    },
    { role: 'assistant', content: { type: 'text', text: 'Gladly.' } },
    {
      role: 'user',
      content: {
        type: 'image',
        data: Buffer.from('PNG').toString('base64'),
        mimeType: 'image/png',
      },
    },
  ],
}));

void server.connect(new StdioServerTransport());
