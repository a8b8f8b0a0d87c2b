/**
 * Record once, replay offline, through the Bedrock adapter: `recordingHandler` wraps the real
 * Smithy HTTP handler of the real SDK client (pointed at a loopback server, signing with fake
 * credentials), the server is closed, and `replayHandler` serves the file to a fresh client.
 * Event streams are stored as decoded frames and re-encoded on replay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Delta, ModelRequest, ModelResponse } from 'golem';
import { bedrock, type BedrockModel } from 'golem/providers/bedrock';
import {
  loadFixture,
  recordingHandler,
  replayHandler,
  type ReplayHandler,
  type RecordingHandler,
} from 'golem/testing';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import {
  CREDENTIALS,
  jsonReply,
  ownFixture,
  ownStream,
  streamReply,
} from '../providers/bedrock/support';
import { tempDir } from './record-replay-support';
import { ReplayMismatchError } from '../../support/internal-errors';

const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjEGolemSessionToken0123456789';
const ENDPOINT = 'http://127.0.0.1:9'; // replaced by the server's URL while recording
const request: ModelRequest = { messages: [{ role: 'user', content: 'go' }], tools: [] };

const models: BedrockModel[] = [];
const servers: ReplayServer[] = [];
afterEach(async () => {
  for (const model of models.splice(0)) model.destroy();
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
});

function model(endpoint: string, requestHandler: RecordingHandler | ReplayHandler): BedrockModel {
  const built = bedrock({
    model: 'us.amazon.nova-micro-v1:0',
    region: 'us-east-1',
    endpoint,
    credentials: { ...CREDENTIALS, sessionToken: SESSION_TOKEN },
    client: { requestHandler },
  });
  models.push(built);
  return built;
}

async function call(
  target: BedrockModel,
  mode: 'generate' | 'stream',
  input: ModelRequest = request,
): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  const deltas: Delta[] = [];
  const response =
    mode === 'generate'
      ? await target.generate(input)
      : await target.stream(input, (delta) => {
          deltas.push(delta);
        });
  return { response, deltas };
}

/** Records one call against a loopback server serving `reply`; returns the fixture file. */
async function record(mode: 'generate' | 'stream', reply: Parameters<ReplayServer['push']>[0]) {
  const server = await startReplayServer([reply]);
  servers.push(server);
  const file = join(tempDir(), `bedrock-${mode}.json`);
  const recorder = recordingHandler({ handler: new NodeHttpHandler(), file });
  const live = await call(model(server.url, recorder), mode);
  await recorder.settled();
  await server.close();
  return { file, live, url: server.url };
}

test('generate: a recorded Converse exchange replays offline into the identical response', async () => {
  const { file, live, url } = await record('generate', jsonReply(ownFixture('converse-text.json')));
  const replay = replayHandler(file);
  const replayed = await call(model(url, replay), 'generate');
  expect(replayed).toEqual(live);
  expect(live.response.message.content).toBe('Bees communicate with a waggle dance.');
  replay.assertDone();
  const exchange = loadFixture(file).exchanges[0]!;
  expect(exchange.request.url).toBe(`${url}/model/us.amazon.nova-micro-v1%3A0/converse`);
  expect(exchange.request.body).toMatchObject({
    messages: [{ role: 'user', content: [{ text: 'go' }] }],
  });
});

test('stream: event-stream frames are stored decoded and replay into the identical response', async () => {
  const { file, live, url } = await record('stream', streamReply(ownStream('tool.stream.jsonl')));
  const frames = loadFixture(file).exchanges[0]!.response.bodyFrames ?? [];
  expect(frames[0]).toEqual({
    headers: {
      ':event-type': 'messageStart',
      ':content-type': 'application/json',
      ':message-type': 'event',
    },
    payload: { role: 'assistant' },
  });
  expect(frames.at(-1)?.headers[':event-type']).toBe('metadata');

  const replay = replayHandler(file);
  expect(await call(model(url, replay), 'stream')).toEqual(live);
  expect(live.response.message.toolCalls?.[0]?.name).toBe('train_times');
  expect(live.deltas.length).toBeGreaterThan(2);
  replay.assertDone();
});

test('stream: replayed byte by byte, the SDK decoder still yields the identical response', async () => {
  const { file, live, url } = await record(
    'stream',
    streamReply(ownStream('reasoning.stream.jsonl')),
  );
  const replay = replayHandler(file, { split: 1 });
  expect(await call(model(url, replay), 'stream')).toEqual(live);
});

test('credentials never reach the file: no signature, secret key or session token', async () => {
  const { file } = await record('generate', jsonReply(ownFixture('converse-text.json')));
  const text = readFileSync(file, 'utf8');
  expect(text).not.toContain(SESSION_TOKEN);
  expect(text).not.toContain(CREDENTIALS.secretAccessKey);
  expect(text).not.toContain(CREDENTIALS.accessKeyId);
  expect(text).not.toMatch(/AWS4-HMAC-SHA256|x-amz-security-token|authorization/i);
});

test('a changed request fails with ReplayMismatchError naming the first differing field', async () => {
  const { file, url } = await record('generate', jsonReply(ownFixture('converse-text.json')));
  const replay = replayHandler(file);
  const changed: ModelRequest = { messages: [{ role: 'user', content: 'stop' }], tools: [] };
  await expect(call(model(url, replay), 'generate', changed)).rejects.toThrow(/differs/);
  let error: unknown;
  try {
    replay.assertDone();
  } catch (thrown) {
    error = thrown;
  }
  expect(ReplayMismatchError.is(error)).toBe(true);
  expect(error).toMatchObject({
    path: 'body.messages[0].content[0].text',
    recorded: '"go"',
    received: '"stop"',
    exchange: 1,
  });
});

test('a hand-written fixture (documented ConverseStream events as frames) replays offline', async () => {
  const replay = replayHandler(join(__dirname, 'fixtures', 'bedrock-converse-stream.json'));
  const { response, deltas } = await call(model(ENDPOINT, replay), 'stream');
  expect(response).toEqual({
    message: { role: 'assistant', content: 'Tides follow the moon.' },
    usage: { inputTokens: 6, outputTokens: 7 },
    finishReason: 'stop',
    modelName: 'us.amazon.nova-micro-v1:0',
  });
  expect(deltas.map((d) => d.content)).toEqual(['Tides follow', ' the moon.']);
  replay.assertDone();
});
