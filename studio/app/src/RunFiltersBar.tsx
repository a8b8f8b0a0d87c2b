import { useEffect, useState } from 'react';
import { useInfo } from './info-context';
import { STATUSES, type RunFilters } from './run-filters';

/** The filters above the runs table: agent, status chips, owner, time range, text. */
export function RunFiltersBar({
  filters,
  onChange,
}: {
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
}) {
  const info = useInfo();
  const [q, setQ] = useState(filters.q);
  // Typing waits a moment before it queries.
  useEffect(() => {
    if (q === filters.q) return;
    const timer = window.setTimeout(() => {
      onChange({ ...filters, q });
    }, 250);
    return () => {
      window.clearTimeout(timer);
    };
  }, [q, filters, onChange]);
  return (
    <div className="filters">
      <select
        data-testid="filter-agent"
        aria-label="Agent"
        value={filters.agent}
        onChange={(event) => {
          onChange({ ...filters, agent: event.target.value });
        }}
      >
        <option value="">All agents</option>
        {info?.agents.map((agent) => (
          <option key={agent.name} value={agent.name}>
            {agent.name}
          </option>
        ))}
      </select>
      <div className="chips" role="group" aria-label="Status">
        {STATUSES.map((status) => {
          const on = filters.status === status;
          return (
            <button
              key={status}
              type="button"
              className={`chip status-${status}${on ? ' on' : ''}`}
              aria-pressed={on}
              data-testid={`filter-status-${status}`}
              onClick={() => {
                onChange({ ...filters, status: on ? '' : status });
              }}
            >
              <span className={`dot status-${status}`} />
              {status}
            </button>
          );
        })}
      </div>
      {info?.owner === undefined && (
        <input
          data-testid="filter-owner"
          aria-label="Owner"
          placeholder="owner"
          value={filters.owner}
          onChange={(event) => {
            onChange({ ...filters, owner: event.target.value });
          }}
        />
      )}
      <select
        data-testid="filter-since"
        aria-label="Time range"
        value={filters.window}
        onChange={(event) => {
          onChange({ ...filters, window: event.target.value as RunFilters['window'] });
        }}
      >
        <option value="">Any time</option>
        <option value="3600000">Last hour</option>
        <option value="86400000">Last 24 hours</option>
        <option value="604800000">Last 7 days</option>
      </select>
      <input
        type="number"
        min="0"
        step="any"
        className="cost-filter"
        data-testid="filter-min-cost"
        aria-label="Least cost"
        placeholder="min cost"
        value={filters.minCost}
        onChange={(event) => {
          onChange({ ...filters, minCost: event.target.value });
        }}
      />
      <input
        type="search"
        className="grow"
        data-testid="filter-q"
        aria-label="Search"
        placeholder="Search id, agent, conversation…"
        value={q}
        onChange={(event) => {
          setQ(event.target.value);
        }}
      />
    </div>
  );
}
