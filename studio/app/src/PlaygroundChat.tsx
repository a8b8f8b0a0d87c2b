import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  isReasoningUIPart,
  isTextUIPart,
  isToolUIPart,
  getToolName,
  type UIMessage,
} from 'ai';
import { useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { apiUrl, authHeaders } from './api';

/** What the playground sends with every message besides the messages. */
export interface PlaygroundSettings {
  readonly model: string;
  /** Empty: the agent's own setting. */
  readonly temperature: string;
}

function Message({ message }: { message: UIMessage }) {
  return (
    <article
      className={`chat-message role-${message.role}`}
      data-testid="chat-message"
      data-role={message.role}
    >
      <div className="label">{message.role}</div>
      {message.parts.map((part, index) => {
        if (isTextUIPart(part))
          return (
            <div key={index} className="pre">
              {part.text}
            </div>
          );
        if (isReasoningUIPart(part))
          return (
            <details key={index} className="thinking">
              <summary>thinking</summary>
              <div className="pre">{part.text}</div>
            </details>
          );
        if (isToolUIPart(part))
          return (
            <div key={index} className="tool-card compact">
              <div className="tool-head">
                <span className="tool-name mono">{getToolName(part)}</span>
                <span className={`tag ${part.state === 'output-error' ? 'danger' : 'muted'}`}>
                  {part.state}
                </span>
              </div>
            </div>
          );
        return null;
      })}
    </article>
  );
}

/**
 * A chat with one agent through `POST /api/playground/:agent` (golem/ui's stream). The model
 * and settings are read at every send, so changing them applies to the next message.
 */
export function PlaygroundChat({
  agent,
  settings,
}: {
  agent: string;
  settings: PlaygroundSettings;
}) {
  const current = useRef(settings);
  current.current = settings;
  const [transport] = useState(
    () =>
      new DefaultChatTransport<UIMessage>({
        api: apiUrl(`api/playground/${encodeURIComponent(agent)}`),
        credentials: 'omit',
        headers: () => authHeaders(),
        prepareSendMessagesRequest: ({ messages }) => {
          const { model, temperature } = current.current;
          const value = Number(temperature);
          return {
            headers: authHeaders(),
            body: {
              messages,
              ...(model !== '' ? { model } : {}),
              settings:
                temperature.trim() !== '' && Number.isFinite(value) ? { temperature: value } : {},
            },
          };
        },
      }),
  );
  const { messages, sendMessage, status, error, stop, setMessages, clearError } = useChat({
    transport,
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  const submit = (event?: SyntheticEvent): void => {
    event?.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    void sendMessage({ text });
    setInput('');
  };
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  return (
    <div className="chat" data-status={status}>
      <div className="chat-log" aria-live="polite" data-testid="chat-log">
        {messages.length === 0 && <p className="empty">Say something to {agent}.</p>}
        {messages.map((message) => (
          <Message key={message.id} message={message} />
        ))}
        {status === 'submitted' && <p className="muted small">…</p>}
        {error !== undefined && (
          <div className="failure small" data-testid="chat-error">
            {error.message}
            <button type="button" className="link" onClick={clearError}>
              dismiss
            </button>
          </div>
        )}
      </div>
      <form className="chat-form" onSubmit={submit}>
        <textarea
          rows={2}
          data-testid="chat-input"
          placeholder={`Message ${agent}… (Enter to send, Shift+Enter for a new line)`}
          value={input}
          onChange={(event) => {
            setInput(event.target.value);
          }}
          onKeyDown={onKey}
        />
        <div className="col">
          {busy ? (
            <button type="button" data-testid="chat-stop" onClick={() => void stop()}>
              Stop
            </button>
          ) : (
            <button
              type="submit"
              className="primary"
              data-testid="chat-send"
              disabled={input.trim() === ''}
            >
              Send
            </button>
          )}
          <button
            type="button"
            className="small"
            data-testid="chat-clear"
            disabled={busy || messages.length === 0}
            onClick={() => {
              setMessages([]);
            }}
          >
            Clear
          </button>
        </div>
      </form>
    </div>
  );
}
