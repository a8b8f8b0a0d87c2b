import type { StudioGuardrailVerdict } from '../../../src/studio/api-types';

/** The tag style of a guardrail outcome. */
function outcomeClass(outcome: string): string {
  if (outcome === 'pass') return 'tag ok';
  if (outcome === 'rewrite' || outcome === 'retry') return 'tag warn';
  return 'tag danger';
}

/** The run's guardrail decisions (from its traces), in order; nothing when there are none. */
export function GuardrailPanel({ verdicts }: { verdicts: readonly StudioGuardrailVerdict[] }) {
  if (verdicts.length === 0) return null;
  return (
    <section className="panel" data-testid="guardrails">
      <header className="panel-head">
        <h2>Guardrails</h2>
        <span className="muted small">
          {verdicts.length} decision{verdicts.length === 1 ? '' : 's'}
        </span>
      </header>
      <table className="table">
        <thead>
          <tr>
            <th>Guardrail</th>
            <th>Phase</th>
            <th>Outcome</th>
            <th>Call</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {verdicts.map((verdict, i) => (
            <tr key={`${verdict.name}-${String(i)}`} data-testid="guardrail-verdict">
              <td className="mono">{verdict.name}</td>
              <td>{verdict.phase}</td>
              <td>
                <span className={outcomeClass(verdict.outcome)}>{verdict.outcome}</span>
              </td>
              <td className="mono small">
                {verdict.toolName === undefined
                  ? '—'
                  : `${verdict.toolName}${verdict.callId === undefined ? '' : ` · ${verdict.callId}`}`}
              </td>
              <td className="small">{verdict.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
