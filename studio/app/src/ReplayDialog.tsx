import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import type { ReplayBody, StartedRun, StudioTurn } from '../../../src/studio/api-types';
import { request } from './api';
import { useInfo } from './info-context';
import { href, navigate } from './router';

/** The last user text kept by a replay from `fromTurn` (what the prompt field replaces). */
function keptPrompt(turns: readonly StudioTurn[], fromTurn: number): string {
  for (let index = Math.min(fromTurn, turns.length - 1); index >= 0; index--) {
    const prompt = turns[index]?.prompt;
    if (prompt !== undefined) return prompt;
  }
  return '';
}

/**
 * "Replay from here": a changed prompt, model or tool results → `POST /api/runs/:id/replay` →
 * the comparison of the original and the replay.
 */
export function ReplayDialog({
  runId,
  fromTurn,
  turns,
  onClose,
}: {
  runId: string;
  fromTurn: number;
  turns: readonly StudioTurn[];
  onClose: () => void;
}) {
  const info = useInfo();
  const original = keptPrompt(turns, fromTurn);
  const calls = turns
    .slice(0, fromTurn)
    .flatMap((turn) => turn.toolCalls)
    .filter((call) => call.result !== undefined);
  const [prompt, setPrompt] = useState(original);
  const [model, setModel] = useState('');
  const [results, setResults] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const first = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    first.current?.focus();
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    const toolResults = Object.fromEntries(
      Object.entries(results).filter(
        ([id, text]) => text !== calls.find((call) => call.id === id)?.result,
      ),
    );
    const replay: ReplayBody = {
      fromTurn,
      ...(prompt !== original ? { prompt } : {}),
      ...(model !== '' ? { model } : {}),
      ...(Object.keys(toolResults).length > 0 ? { toolResults } : {}),
    };
    setSending(true);
    request<StartedRun>(`api/runs/${encodeURIComponent(runId)}/replay`, {
      method: 'POST',
      body: replay,
    }).then(
      (started) => {
        navigate(href('compare', runId, started.runId));
      },
      () => {
        setSending(false);
      },
    );
  };

  return (
    <div className="overlay" onClick={onClose}>
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label={`Replay from turn ${fromTurn}`}
        data-testid="replay-dialog"
        onClick={(event) => {
          event.stopPropagation();
        }}
        onSubmit={submit}
      >
        <h2>Replay from turn {fromTurn}</h2>
        <p className="muted small">
          A new run starts from the history before turn {fromTurn}. The original run is kept.
        </p>
        <label className="field">
          <span>Prompt (replaces the last user message kept)</span>
          <textarea
            ref={first}
            rows={4}
            data-testid="replay-prompt"
            value={prompt}
            onChange={(event) => {
              setPrompt(event.target.value);
            }}
          />
        </label>
        <label className="field">
          <span>Model</span>
          <select
            data-testid="replay-model"
            value={model}
            onChange={(event) => {
              setModel(event.target.value);
            }}
          >
            <option value="">Same as the original</option>
            {info?.models.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {calls.length > 0 && (
          <fieldset className="field">
            <legend>Tool results</legend>
            {calls.map((call) => (
              <label key={call.id} className="field">
                <span className="mono small">
                  {call.name} <span className="muted">{call.id}</span>
                </span>
                <textarea
                  rows={2}
                  className="mono"
                  data-testid={`replay-tool-${call.id}`}
                  value={results[call.id] ?? call.result ?? ''}
                  onChange={(event) => {
                    setResults({ ...results, [call.id]: event.target.value });
                  }}
                />
              </label>
            ))}
          </fieldset>
        )}
        <div className="row end">
          <button type="button" data-testid="replay-cancel" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" data-testid="replay-submit" disabled={sending}>
            {sending ? 'Starting…' : 'Replay'}
          </button>
        </div>
      </form>
    </div>
  );
}
