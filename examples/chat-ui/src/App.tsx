import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  isReasoningUIPart,
  isTextUIPart,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { useState, type FormEvent } from 'react';
import { ToolCall } from './ToolCall';

/** The golem endpoint (server.ts): it speaks the AI SDK UI message stream protocol. */
const transport = new DefaultChatTransport({ api: '/api/chat' });

function Message({
  message,
  onDecision,
}: {
  message: UIMessage;
  onDecision: Parameters<typeof ToolCall>[0]['onDecision'];
}) {
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <header>{message.role === 'user' ? 'You' : 'Agent'}</header>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (isTextUIPart(part))
          return (
            <p key={key} className="text" data-testid="text">
              {part.text}
            </p>
          );
        if (isReasoningUIPart(part))
          return (
            <details key={key} className="reasoning">
              <summary>thinking</summary>
              {part.text}
            </details>
          );
        if (isToolUIPart(part)) return <ToolCall key={key} part={part} onDecision={onDecision} />;
        return null;
      })}
    </article>
  );
}

/**
 * The chat page: `useChat` against the golem server. When the user answers an approval request,
 * `sendAutomaticallyWhen` sends the decision back at once, and the server resumes the paused run.
 */
export function App() {
  const { messages, sendMessage, status, error, addToolApprovalResponse, stop } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    void sendMessage({ text });
    setInput('');
  }

  return (
    <main data-status={status}>
      <h1>golem chat</h1>
      <section className="messages" aria-live="polite">
        {messages.map((message) => (
          <Message
            key={message.id}
            message={message}
            onDecision={(decision) => void addToolApprovalResponse(decision)}
          />
        ))}
        {status === 'submitted' && <p className="pending">…</p>}
        {error !== undefined && (
          <p className="error" role="alert">
            {error.message}
          </p>
        )}
      </section>
      <form onSubmit={submit}>
        <input
          aria-label="Message"
          value={input}
          placeholder="Ask the agent…"
          onChange={(event) => setInput(event.target.value)}
        />
        {busy ? (
          <button type="button" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={input.trim() === ''}>
            Send
          </button>
        )}
      </form>
      <footer className="status">status: {status}</footer>
    </main>
  );
}
