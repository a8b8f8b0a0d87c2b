import { useState } from 'react';
import { useInfo } from './info-context';
import { PlaygroundChat } from './PlaygroundChat';

/** `#/playground`: chat with a registered agent, choosing its model and temperature. */
export function PlaygroundPage() {
  const info = useInfo();
  const [chosen, setChosen] = useState('');
  const [model, setModel] = useState('');
  const [temperature, setTemperature] = useState('');
  if (info === undefined)
    return (
      <section className="page">
        <h1>Playground</h1>
        <p className="empty">Loading…</p>
      </section>
    );
  const agent = chosen !== '' ? chosen : (info.agents[0]?.name ?? '');
  const described = info.agents.find((candidate) => candidate.name === agent);
  return (
    <section className="page playground">
      <header className="page-head">
        <h1>Playground</h1>
      </header>
      {!info.features.playground || info.agents.length === 0 ? (
        <p className="empty" data-testid="playground-off">
          No agent is registered with the studio: pass <code>agents</code> to enable the playground.
        </p>
      ) : (
        <>
          <div className="filters">
            <label className="inline">
              <span className="muted small">agent</span>
              <select
                data-testid="playground-agent"
                value={agent}
                onChange={(event) => {
                  setChosen(event.target.value);
                }}
              >
                {info.agents.map((candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline">
              <span className="muted small">model</span>
              <select
                data-testid="playground-model"
                value={model}
                onChange={(event) => {
                  setModel(event.target.value);
                }}
              >
                <option value="">Agent's model</option>
                {info.models.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline">
              <span className="muted small">temperature</span>
              <input
                type="number"
                min={0}
                max={2}
                step={0.1}
                placeholder="default"
                className="narrow"
                data-testid="playground-temperature"
                value={temperature}
                onChange={(event) => {
                  setTemperature(event.target.value);
                }}
              />
            </label>
          </div>
          {described !== undefined && (
            <p className="muted small agent-desc">
              {described.description ?? 'No description.'}
              {described.tools.length > 0 &&
                ` · tools: ${described.tools.map((tool) => tool.name).join(', ')}`}
            </p>
          )}
          <PlaygroundChat key={agent} agent={agent} settings={{ model, temperature }} />
        </>
      )}
    </section>
  );
}
