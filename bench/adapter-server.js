'use strict';
/**
 * The loopback server of scenario (h), run as a child process so its own allocations never count
 * in the heap being measured. It answers every provider's generate and stream endpoints with a
 * tiny valid reply ("ok", 1 + 1 tokens), chosen by the request path (and, for OpenAI-compatible
 * and Anthropic, the body's `stream` flag). Prints `{"port":N}` on stdout once listening.
 *
 *   node adapter-server.js
 */
const http = require('node:http');
const { ROOT } = require('./golem');

const sse = (frames) => frames.map((f) => `${f}\n\n`).join('');
const data = (payload) => `data: ${JSON.stringify(payload)}`;
const event = (payload) => `event: ${payload.type}\n${data(payload)}`;

const OPENAI_JSON = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
const openaiChunk = (choices, usage) => ({
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  model: 'bench',
  choices,
  ...(usage && { usage }),
});
const OPENAI_SSE = sse([
  data(
    openaiChunk([{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }]),
  ),
  data(openaiChunk([{ index: 0, delta: {}, finish_reason: 'stop' }])),
  data(openaiChunk([], { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 })),
  'data: [DONE]',
]);

const ANTHROPIC_USAGE = { input_tokens: 1, output_tokens: 1 };
const ANTHROPIC_JSON = JSON.stringify({
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'bench',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: ANTHROPIC_USAGE,
});
const ANTHROPIC_SSE = sse([
  event({
    type: 'message_start',
    message: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'bench',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: ANTHROPIC_USAGE,
    },
  }),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }),
  event({ type: 'content_block_stop', index: 0 }),
  event({
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1 },
  }),
  event({ type: 'message_stop' }),
]);

const GEMINI_REPLY = {
  candidates: [
    { content: { parts: [{ text: 'ok' }], role: 'model' }, finishReason: 'STOP', index: 0 },
  ],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  modelVersion: 'bench',
};
const GEMINI_JSON = JSON.stringify(GEMINI_REPLY);
const GEMINI_SSE = sse([data(GEMINI_REPLY)]);

const BEDROCK_USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const BEDROCK_JSON = JSON.stringify({
  output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
  stopReason: 'end_turn',
  usage: BEDROCK_USAGE,
  metrics: { latencyMs: 1 },
});
const BEDROCK_STREAM = bedrockFrames();

/** ConverseStream events framed with the AWS SDK's own event-stream codec. */
function bedrockFrames() {
  const { EventStreamCodec } = require(
    require.resolve('@smithy/core/event-streams', { paths: [ROOT] }),
  );
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const codec = new EventStreamCodec(
    (bytes) => decoder.decode(bytes),
    (text) => encoder.encode(text),
  );
  const frame = (type, payload) =>
    codec.encode({
      headers: {
        ':event-type': { type: 'string', value: type },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: encoder.encode(JSON.stringify(payload)),
    });
  return Buffer.concat([
    frame('messageStart', { role: 'assistant' }),
    frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('messageStop', { stopReason: 'end_turn' }),
    frame('metadata', { usage: BEDROCK_USAGE, metrics: { latencyMs: 1 } }),
  ]);
}

const JSON_TYPE = 'application/json';
const SSE_TYPE = 'text/event-stream';

/** The reply for a request: [content type, body]. */
function reply(path, body) {
  const streaming = () => {
    try {
      return JSON.parse(body).stream === true;
    } catch {
      return false;
    }
  };
  if (path.endsWith('/converse-stream'))
    return ['application/vnd.amazon.eventstream', BEDROCK_STREAM];
  if (path.endsWith('/converse')) return [JSON_TYPE, BEDROCK_JSON];
  if (path.endsWith(':streamGenerateContent')) return [SSE_TYPE, GEMINI_SSE];
  if (path.endsWith(':generateContent')) return [JSON_TYPE, GEMINI_JSON];
  if (path.endsWith('/v1/messages'))
    return streaming() ? [SSE_TYPE, ANTHROPIC_SSE] : [JSON_TYPE, ANTHROPIC_JSON];
  if (path.endsWith('/chat/completions'))
    return streaming() ? [SSE_TYPE, OPENAI_SSE] : [JSON_TYPE, OPENAI_JSON];
  return undefined;
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const path = new URL(req.url ?? '/', 'http://loopback').pathname;
    const answer = reply(decodeURIComponent(path), Buffer.concat(chunks).toString('utf8'));
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': JSON_TYPE }).end('{"error":"unknown path"}');
      return;
    }
    res.writeHead(200, { 'content-type': answer[0] }).end(answer[1]);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
// The parent closes our stdin when it is done (or dies).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
