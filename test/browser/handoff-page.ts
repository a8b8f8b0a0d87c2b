/**
 * The page of the handoff browser test (bundled by esbuild, run in Chromium): the AI SDK's own
 * client pieces — `DefaultChatTransport` (what `useChat` sends with) and `readUIMessageStream`
 * (how `useChat` assembles the assistant message) — render each part of the message as it grows:
 * text, tool parts with their state, and data parts such as `data-handoff`.
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

const transport = new DefaultChatTransport({ api: '/api/chat' });

/** One element per part, with test ids and the part's state as attributes. */
function render(message: UIMessage, into: HTMLElement): void {
  into.replaceChildren(
    ...message.parts.map((part) => {
      const element = document.createElement('p');
      if (part.type === 'text') {
        element.dataset.testid = 'text';
        element.textContent = part.text;
      } else if (part.type.startsWith('tool-') && 'state' in part) {
        element.dataset.testid = part.type;
        element.dataset.state = part.state;
        element.textContent = 'output' in part ? String(part.output) : '';
      } else if (part.type.startsWith('data-') && 'data' in part) {
        element.dataset.testid = part.type;
        element.textContent = JSON.stringify(part.data);
      } else element.dataset.testid = part.type;
      return element;
    }),
  );
}

async function send(text: string, main: HTMLElement): Promise<void> {
  main.dataset.status = 'streaming';
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text }] };
  const assistant = document.createElement('article');
  assistant.dataset.testid = 'message-assistant';
  main.append(assistant);
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'handoff-chat',
    messageId: undefined,
    messages: [user],
    abortSignal: undefined,
  });
  for await (const message of readUIMessageStream({ stream })) render(message, assistant);
  main.dataset.status = 'ready';
}

const main = document.querySelector('main');
const form = document.querySelector('form');
const input = document.querySelector('input');
if (main === null || form === null || input === null) throw new Error('the page has no form');
form.addEventListener('submit', (event) => {
  event.preventDefault();
  send(input.value, main).catch((error: unknown) => {
    main.dataset.status = 'error';
    main.append(String(error));
  });
});
main.dataset.status = 'ready';
