import { useState } from 'react';
import type { EvalReportSummary } from '../../../src/studio/api-types';
import type { ComparisonJson } from './eval-types';
import { percent } from './format';
import { useInfo } from './info-context';
import { href, navigate } from './router';
import { useApi } from './use-api';

function signed(value: number, format: (n: number) => string): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
}

function side(value: { passRate: number; meanScore: number } | undefined): string {
  return value === undefined ? '—' : `${percent(value.passRate)} · ${value.meanScore.toFixed(2)}`;
}

function CompareReports({ reports }: { reports: readonly EvalReportSummary[] }) {
  const [base, setBase] = useState(reports[1]?.file ?? '');
  const [candidate, setCandidate] = useState(reports[0]?.file ?? '');
  const [query, setQuery] = useState<string | null>(null);
  const comparison = useApi<ComparisonJson>(query);
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>Compare two reports</h2>
      </header>
      <div className="filters">
        <select
          data-testid="eval-base"
          aria-label="Baseline"
          value={base}
          onChange={(e) => {
            setBase(e.target.value);
          }}
        >
          {reports.map((report) => (
            <option key={report.file} value={report.file}>
              baseline: {report.file}
            </option>
          ))}
        </select>
        <select
          data-testid="eval-candidate"
          aria-label="Candidate"
          value={candidate}
          onChange={(e) => {
            setCandidate(e.target.value);
          }}
        >
          {reports.map((report) => (
            <option key={report.file} value={report.file}>
              candidate: {report.file}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="primary"
          data-testid="eval-compare"
          disabled={base === '' || candidate === ''}
          onClick={() => {
            setQuery(`api/evals/compare?${new URLSearchParams({ base, candidate }).toString()}`);
          }}
        >
          Compare
        </button>
      </div>
      {comparison.data !== undefined && (
        <div data-testid="eval-comparison">
          <p className="small">
            <span className="tag danger">{comparison.data.regressions} regressed</span>{' '}
            <span className="tag ok">{comparison.data.improvements} improved</span> · pass rate{' '}
            {signed(comparison.data.delta.passRate, percent)} · mean score{' '}
            {signed(comparison.data.delta.meanScore, (n) => n.toFixed(3))} · p50{' '}
            {signed(comparison.data.delta.p50LatencyMs, (n) => `${Math.round(n)} ms`)}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th>Case</th>
                <th>Change</th>
                <th>Baseline</th>
                <th>Candidate</th>
                <th>Output</th>
              </tr>
            </thead>
            <tbody>
              {comparison.data.cases.map((row) => (
                <tr key={row.name} data-testid="eval-compare-row" data-change={row.change}>
                  <td className="mono">{row.name}</td>
                  <td>
                    <span className={`tag change-${row.change}`}>{row.change}</span>
                  </td>
                  <td className="mono">{side(row.baseline)}</td>
                  <td className="mono">{side(row.candidate)}</td>
                  <td className="muted">{row.outputChanged ? 'changed' : 'same'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** `#/evals`: the eval reports in the studio's reports folder, and a comparison of two. */
export function EvalsPage() {
  const info = useInfo();
  const enabled = info === undefined || info.features.evals;
  const reports = useApi<EvalReportSummary[]>(enabled ? 'api/evals' : null);
  return (
    <section className="page">
      <header className="page-head">
        <h1>Evals</h1>
      </header>
      {!enabled ? (
        <p className="empty" data-testid="evals-off">
          No reports folder: start the studio with <code>reports</code> (a folder of eval report
          JSON files).
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Experiment</th>
                  <th>Dataset</th>
                  <th>File</th>
                  <th>Started</th>
                  <th className="num">Cases</th>
                  <th className="num">Pass rate</th>
                  <th className="num">Mean score</th>
                </tr>
              </thead>
              <tbody>
                {reports.data?.map((report) => (
                  <tr
                    key={report.file}
                    className="clickable"
                    data-testid="eval-report-row"
                    data-file={report.file}
                    onClick={() => {
                      navigate(href('evals', report.file));
                    }}
                  >
                    <td>
                      <a
                        href={href('evals', report.file)}
                        onClick={(e) => {
                          e.stopPropagation();
                        }}
                      >
                        {report.name}
                      </a>
                    </td>
                    <td>{report.dataset}</td>
                    <td className="mono muted">{report.file}</td>
                    <td className="muted">{new Date(report.startedAt).toLocaleString()}</td>
                    <td className="num">{report.cases}</td>
                    <td className="num">{percent(report.passRate)}</td>
                    <td className="num mono">{report.meanScore.toFixed(3)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {reports.data?.length === 0 && <p className="empty">No eval reports in the folder.</p>}
          </div>
          {reports.data !== undefined && reports.data.length >= 2 && (
            <CompareReports reports={reports.data} />
          )}
        </>
      )}
    </section>
  );
}
