/**
 * Record once, replay offline, through every fetch-based adapter in both modes: a loopback
 * server stands in for the provider (serving our own documented-format fixtures), the recording
 * is written to a file, the server is closed, and the file replayed through the same adapter
 * gives the same response and the same fragments. The key never reaches the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixture, recordingFetch, replayFetch } from 'golem/testing';
import { startReplayServer, type Reply, type ReplayServer } from '../../support/replay-server';
import { ADAPTERS, KEY, call, providerReply, tempDir } from './record-replay-support';

const servers: ReplayServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
});

/** A loopback server standing in for the provider, closed after the test in any case. */
async function provider(...replies: Reply[]): Promise<ReplayServer> {
  const server = await startReplayServer(replies);
  servers.push(server);
  return server;
}

const MODES = ['generate', 'stream'] as const;
const table = ADAPTERS.flatMap((adapter) =>
  MODES.map((mode) => [adapter.provider, mode, adapter] as const),
);

test.each(table)(
  '%s %s: a recorded exchange replays offline into the identical response',
  async (name, mode, adapter) => {
    const server = await provider(
      providerReply(name, mode === 'generate' ? adapter.json : adapter.sse),
    );
    const dir = tempDir();
    const recorder = recordingFetch({ dir, name: `${name}-${mode}` });
    const live = await call(adapter.build(server.url, recorder), mode);
    await recorder.settled();
    await server.close();

    const file = join(dir, `${name}-${mode}.json`);
    const replay = replayFetch(file);
    const replayed = await call(adapter.build(server.url, replay), mode);

    expect(replayed).toEqual(live);
    expect(live.response.message.content ?? live.response.message.toolCalls).toBeTruthy();
    expect(live.deltas.length > 1).toBe(mode === 'stream'); // streamed fragment by fragment
    expect(() => {
      replay.assertDone();
    }).not.toThrow();
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]?.headers)).toContain(KEY); // the key was really sent…
    expect(readFileSync(file, 'utf8')).not.toContain(KEY); // …and never written
  },
);

test('the file is readable: the request body as JSON, server-sent events as text lines', async () => {
  const openai = ADAPTERS[0]!;
  const server = await provider(providerReply('openai', openai.sse));
  const dir = tempDir();
  const recorder = recordingFetch({ file: join(dir, 'tools.json') });
  await call(openai.build(server.url, recorder), 'stream');
  await recorder.settled();
  await server.close();

  const fixture = loadFixture(join(dir, 'tools.json'));
  const exchange = fixture.exchanges[0]!;
  expect(fixture).toMatchObject({ golemFixture: 1, name: 'tools' });
  expect(exchange.request).toMatchObject({
    method: 'POST',
    url: `${server.url}/chat/completions`,
    headers: { 'content-type': 'application/json' },
    body: { model: 'gpt-4o-mini', stream: true },
  });
  expect(Object.keys(exchange.request.headers ?? {})).not.toContain('authorization');
  expect(exchange.response.status).toBe(200);
  expect(exchange.response.headers).toEqual({ 'content-type': 'text/event-stream' });
  expect(exchange.response.bodyText?.[0]).toMatch(/^data: \{"id":/);
  expect(exchange.response.bodyText?.filter((line) => line === 'data: [DONE]')).toHaveLength(1);
  expect(readFileSync(join(dir, 'tools.json'), 'utf8')).toMatch(/^\{\n {2}"golemFixture": 1,\n/);
});

test('a multi-call agent run records every exchange in order and replays the whole run', async () => {
  const { Agent, defineTool } = await import('golem');
  const openai = ADAPTERS[0]!;
  const rate = defineTool({
    name: 'exchange_rate',
    description: 'Exchange rate between two currencies.',
    schema: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
    execute: (args) => `1 ${JSON.stringify(args)} = 1.1`,
  });
  const server = await provider(
    providerReply('openai', 'completion-parallel-tools.json'),
    providerReply('openai', 'completion-text.json'),
  );
  const recorder = recordingFetch();
  const agent = (fetch: typeof recorder) =>
    new Agent({ model: openai.build(server.url, fetch), tools: [rate] });
  const live = await agent(recorder).run('Rates for EUR and GBP?');
  const fixture = await recorder.settled();
  await server.close();

  const replay = replayFetch(fixture);
  const replayed = await new Agent({
    model: openai.build(server.url, replay),
    tools: [rate],
  }).run('Rates for EUR and GBP?');
  expect(fixture.exchanges).toHaveLength(2);
  expect(replayed.messages).toEqual(live.messages);
  expect(replayed.output).toBe(live.output);
  replay.assertDone();
});
