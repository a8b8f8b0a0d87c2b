/**
 * The AI SDK's own chat client (`AbstractChat` from the `ai` package, what `useChat` wraps) with
 * an in-memory state, talking to a Golem chat route over real HTTP on a loopback port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type ChatState,
  type ChatStatus,
  type UIMessage,
} from 'ai';

class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A chat client whose every finished response resolves the next `finished()` promise. */
export class NodeChat extends AbstractChat<UIMessage> {
  private waiters: (() => void)[] = [];
  readonly errors: string[] = [];

  constructor(api: string) {
    super({
      transport: new DefaultChatTransport({ api }),
      state: new MemoryChatState(),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      onFinish: () => {
        this.waiters.shift()?.();
      },
      onError: (error) => {
        this.errors.push(error.message);
      },
    });
  }

  /** Resolves when the next response finishes streaming (however it ended). */
  finished(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** An HTTP server on an ephemeral loopback port; `close` ends it and its connections. */
export async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close: () => Promise<void>; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
