/**
 * Chat UI, headless: the same server the page talks to (server.ts), driven from Node by the AI
 * SDK's own client pieces — `DefaultChatTransport` (what `useChat` sends with) and
 * `readUIMessageStream` (how it assembles messages). A user message starts a run that streams
 * text, calls `get_weather`, then pauses on `book_table` for approval; sending the approval back
 * (what the page's Approve button does) resumes the run and streams the answer into the same
 * assistant message. `npm start` in this folder serves the real page; see README.md.
 */
import {
  DefaultChatTransport,
  getToolName,
  isTextUIPart,
  isToolUIPart,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { chatAgent } from './agent';
import { createChatServer, listen } from './server';

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read())
    chunks.push(read.value);
  return chunks;
}

/** The chunk types in order, runs of the same type folded into `type ×n`. */
function summary(chunks: readonly UIMessageChunk[]): string[] {
  const lines: string[] = [];
  let last = '';
  let count = 0;
  const flush = (): void => {
    if (count > 0) lines.push(count > 1 ? `${last} ×${count}` : last);
  };
  for (const { type } of chunks) {
    if (type === last) count += 1;
    else {
      flush();
      last = type;
      count = 1;
    }
  }
  flush();
  return lines;
}

/** The assistant message the chunks build, starting from `message` when it continues one. */
async function assemble(chunks: UIMessageChunk[], message?: UIMessage): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let built: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream, message })) built = state;
  if (built === undefined) throw new Error('the stream built no message');
  return built;
}

function describe(message: UIMessage): string[] {
  return message.parts.flatMap((part) => {
    if (isTextUIPart(part)) return [`  text: ${part.text.trim()}`];
    if (isToolUIPart(part)) {
      const output = part.state === 'output-available' ? ` → ${JSON.stringify(part.output)}` : '';
      return [`  tool ${getToolName(part)} [${part.state}]${output}`];
    }
    return [];
  });
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // Offline on the scripted model (no word delay here: nobody watches this stream).
  const server = createChatServer({ agent: chatAgent({}, { wordDelayMs: 0 }) });
  const url = await listen(server, 0, '127.0.0.1');
  try {
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat` });
    const send = async (messages: UIMessage[]): Promise<UIMessageChunk[]> =>
      collect(
        await transport.sendMessages({
          trigger: 'submit-message',
          chatId: 'demo',
          messageId: undefined,
          messages,
          abortSignal: undefined,
        }),
      );

    const user: UIMessage = {
      id: 'user-1',
      role: 'user',
      parts: [{ type: 'text', text: 'Plan a dinner in Lagos tonight.' }],
    };
    const first = await send([user]);
    log('first request: chunks');
    for (const line of summary(first)) log(`  ${line}`);
    const paused = await assemble(first);
    log('assistant message, paused:');
    for (const line of describe(paused)) log(line);

    // What the Approve button does: the tool part records the decision, and the page sends the
    // conversation again (sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses).
    const decided: UIMessage = {
      ...paused,
      parts: paused.parts.map((part) =>
        isToolUIPart(part) && part.state === 'approval-requested'
          ? {
              ...part,
              state: 'approval-responded',
              approval: { id: part.approval.id, approved: true },
            }
          : part,
      ),
    };
    const second = await send([user, decided]);
    log('approval request: chunks');
    for (const line of summary(second)) log(`  ${line}`);
    const done = await assemble(second, decided);
    log(`assistant message, finished (same id: ${done.id === paused.id}):`);
    for (const line of describe(done)) log(line);
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
