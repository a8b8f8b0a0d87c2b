/**
 * The HTTP process: it enqueues runs and streams them — it runs no agent itself.
 *
 *   POST /runs                 { "prompt": "…", "customer": "…" } → 202 { "runId" }
 *   GET  /runs/:id/events      server-sent events (resumes after Last-Event-ID)
 *   POST /runs/:id/decision    { "approvals": { "<callId>": { "approved": true } } } → 202
 *   GET  /runs/:id             the run's state and, once completed, its output
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { QueueError, runQueue, writeFeedSse } from 'golem/queue';
import { sqliteStore } from 'golem/stores/sqlite';
import { REDIS_URL, PREFIX } from './settings';

const [dir = '.'] = process.argv.slice(2);
const store = sqliteStore({ path: join(dir, 'runs.db') });
const queue = runQueue({ connection: REDIS_URL, prefix: PREFIX, store });

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text === '' ? '{}' : text) as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, runs, id, action] = (req.url ?? '').split('/');
  if (runs === 'runs' && req.method === 'POST' && id === undefined) {
    const { prompt, customer } = await body(req);
    const run = await queue.enqueue('support', String(prompt), {
      deps: { customer: String(customer) },
    });
    reply(res, 202, { runId: run.runId });
  } else if (runs === 'runs' && id !== undefined && req.method === 'GET' && action === 'events') {
    const after = req.headers['last-event-id'];
    await writeFeedSse(res, (signal) =>
      queue.events(id, { signal, ...(typeof after === 'string' && { after }) }),
    );
  } else if (
    runs === 'runs' &&
    id !== undefined &&
    req.method === 'POST' &&
    action === 'decision'
  ) {
    // Check the approver's authority here (see the deferred-tools guide's security note).
    await queue.decide(id, await body(req));
    reply(res, 202, { runId: id });
  } else if (runs === 'runs' && id !== undefined && req.method === 'GET' && action === undefined) {
    const status = await queue.status(id);
    reply(res, 200, { state: status.state, output: status.record?.output });
  } else reply(res, 404, { error: 'not found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    // Typed errors name the problem and the fix; a bad request is the client's to correct.
    reply(res, QueueError.is(error) ? 400 : 500, { error: String(error) });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address !== null ? address.port : 0 });
});
process.once('SIGTERM', () => {
  server.close();
  void queue
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});
