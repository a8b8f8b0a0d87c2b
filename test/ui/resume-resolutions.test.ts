/**
 * A resumed run streamed to the UI: denied calls end as `output-denied`, external results as
 * `output-available`, approved calls with their re-run's output — before the continuation's first
 * step, read back by the real `ai` package continuing the paused message.
 */
import type { ToolUIPart, UIMessage, UIMessageChunk } from 'ai';
import { Agent, deferExternal, defineTool } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { createUIMessageStreamResponse } from 'golem/ui';
import { chunkStream } from '../../src/ui/to-ui-stream';
import { collect, foldMessage, parseSseBytes } from './ai-client';

const pay = defineTool({
  name: 'pay',
  description: 'Pays an invoice.',
  schema: { type: 'object', properties: { amount: { type: 'number' } } },
  approval: true,
  execute: (args) => `paid ${(args as { amount: number }).amount}`,
});
const report = defineTool({
  name: 'fetch_report',
  description: 'Produced by a batch job.',
  schema: { type: 'object' },
  execute: () => {
    throw deferExternal('the batch job answers');
  },
});

function agent(): Agent<undefined, string, true> {
  const model = new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool'))
      return toolCallResponse([
        { id: 'r1', name: 'fetch_report' },
        { id: 'p1', name: 'pay', args: { amount: 5 } },
        { id: 'p2', name: 'pay', args: { amount: 900 } },
      ]);
    await emit({ content: 'Settled.' });
    return textResponse('Settled.');
  });
  return new Agent<undefined, string, true>({ model, tools: [pay, report], deferredTools: true });
}

const RESOLUTIONS = {
  approvals: { p1: { approved: true }, p2: { approved: false, reason: 'over budget' } },
  external: { r1: 'Q3: 12 invoices' },
};

async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  return parseSseBytes(response.body as ReadableStream<Uint8Array>);
}

const toolStates = (message: UIMessage | undefined) =>
  (message?.parts ?? [])
    .filter((p): p is ToolUIPart => p.type.startsWith('tool-'))
    .map((p) => [p.toolCallId, p.state, p.state === 'output-available' ? p.output : undefined]);

test('toUIMessageStream of resumeStream ends every resolved call before the next step', async () => {
  const golem = agent();
  const first = golem.runStream('settle up');
  const pausedChunks = await chunksOf(createUIMessageStreamResponse(first));
  const paused = (await foldMessage(pausedChunks)).message as UIMessage;
  const history = (await first.result).messages;

  const resumed = golem.resumeStream(history, RESOLUTIONS);
  const chunks = await chunksOf(createUIMessageStreamResponse(resumed, { messageId: paused.id }));

  const beforeStep = chunks.slice(
    0,
    chunks.findIndex((c) => c.type === 'start-step'),
  );
  expect(beforeStep).toEqual([
    { type: 'start', messageId: paused.id },
    { type: 'tool-output-available', toolCallId: 'r1', output: 'Q3: 12 invoices' },
    { type: 'tool-output-available', toolCallId: 'p1', output: 'paid 5' },
    { type: 'tool-output-denied', toolCallId: 'p2' },
  ]);
  const { message, errors } = await foldMessage(chunks, paused);
  expect(errors).toEqual([]);
  expect(toolStates(message)).toEqual([
    ['r1', 'output-available', 'Q3: 12 invoices'],
    ['p1', 'output-available', 'paid 5'],
    ['p2', 'output-denied', undefined],
  ]);
  expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Settled.' });
});

test('the chat helpers send a denial once and leave the client-supplied external result alone', async () => {
  const golem = agent();
  const history = (await golem.run('settle up')).messages;

  const continuation = { approved: ['p1'], denied: ['p2'], external: ['r1'] };
  const stream = chunkStream(golem.resumeStream(history, RESOLUTIONS), {}, continuation);
  const chunks = await collect(stream);

  const outputs = chunks
    .filter((c) => c.type.startsWith('tool-output'))
    .map((c) => `${c.type} ${(c as { toolCallId: string }).toolCallId}`);
  expect(outputs).toEqual(['tool-output-denied p2', 'tool-output-available p1']);
  expect(chunks[1]).toEqual({ type: 'tool-output-denied', toolCallId: 'p2' });
});
