/**
 * The example's MCP server: a tiny knowledge base served over Streamable HTTP with the official SDK
 * (McpServer + StreamableHTTPServerTransport) on a loopback node:http server, one session per
 * client. main.ts starts and stops it.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const ARTICLES: Record<string, string> = {
  retries: 'Retries: maxAttempts bounds model calls; backoff doubles from 500 ms.',
  timeouts: 'Timeouts: toolTimeout bounds each tool call; runTimeout bounds the run.',
};

function knowledgeBase(): McpServer {
  const server = new McpServer({ name: 'knowledge-base', version: '0.3.0' });
  server.registerTool(
    'search',
    { description: 'Find articles by keyword.', inputSchema: { query: z.string() } },
    ({ query }) => {
      const hits = Object.keys(ARTICLES).filter((key) => key.includes(query.toLowerCase()));
      return {
        content: [{ type: 'text', text: hits.length === 0 ? 'no articles' : hits.join('\n') }],
      };
    },
  );
  server.registerTool(
    'read_article',
    { description: 'Read one article.', inputSchema: { slug: z.string() } },
    ({ slug }) => ({
      content: [{ type: 'text', text: ARTICLES[slug] ?? `no article ${slug}` }],
      isError: !(slug in ARTICLES),
    }),
  );
  return server;
}

/** A running server: its MCP endpoint URL and a way to stop it. */
export interface RunningServer {
  url: string;
  /** Bearer tokens the server saw, in order (to show that headers are sent). */
  tokens: string[];
  stop(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startKnowledgeBase(): Promise<RunningServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const tokens: string[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      tokens.push(req.headers.authorization ?? '');
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, transport as StreamableHTTPServerTransport);
          },
        });
        const server = knowledgeBase();
        servers.push(server);
        await server.connect(transport);
      }
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    tokens,
    stop: async () => {
      for (const server of servers) await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) =>
        http.close(() => {
          resolve();
        }),
      );
    },
  };
}
