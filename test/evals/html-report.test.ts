import { compareReports } from '../../src/evals/compare';
import { escapeHtml } from '../../src/evals/html-escape';
import { renderHtml } from '../../src/evals/html-report';
import {
  INJECTED_FLAG,
  SCRIPT_OUTPUT,
  caseOf,
  report,
  run,
  simpleCase,
  verdict,
  weatherReport,
} from './report-fixtures';

describe('renderHtml', () => {
  const html = renderHtml(weatherReport());

  test('is one complete page with a no-script, no-network content security policy', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`,
    );
  });

  test('model output with a script and an onerror image renders as text', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain(escapeHtml(SCRIPT_OUTPUT));
    expect(html).toContain(`&lt;script&gt;window.${INJECTED_FLAG} = true&lt;/script&gt;`);
  });

  test('a case name cannot break out of an attribute', () => {
    expect(html).not.toContain('" onmouseover="');
    expect(html).toContain(
      `data-case="bad&quot; onmouseover=&quot;window.${INJECTED_FLAG}=1&quot; x=&quot;"`,
    );
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(100);
    // Outside its double-quoted values, no tag has an event-handler attribute.
    for (const tag of tags) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+\s*=/i);
  });

  test('references nothing outside the page', () => {
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<link|<iframe|<object|<embed|@import|url\(/i);
    const targets = [...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target).toMatch(/^#case-\d+-body$/);
  });

  test('summary cards give pass rate, runs, score, tokens, cost, latency and replayed runs', () => {
    const summary = html.slice(html.indexOf('id="summary"'), html.indexOf('id="cases"'));
    expect(summary).toContain('<div class="label">Pass rate</div><div class="value">40%</div>');
    expect(summary).toContain('2 of 5 runs passed');
    expect(summary).toContain('<div class="value">0.003</div>');
    expect(summary).toContain('p90 3.00s');
    expect(summary).toContain('<div class="value">1/5</div>');
    expect(summary).toContain('<div class="label">Judges</div>');
  });

  test('each case has a row linking to its details, and a <details> with its verdicts and reasons', () => {
    const r = weatherReport();
    r.cases.forEach((c, index) => {
      expect(html).toContain(`<a href="#case-${String(index)}-body">${escapeHtml(c.name)}</a>`);
      expect(html).toContain(`<div class="case-body" id="case-${String(index)}-body">`);
      expect(html).toContain(
        `<details class="case${c.passRate < 1 ? ' fail' : ''}" id="case-${String(index)}"`,
      );
    });
    expect(html.match(/<details class="case/g)).toHaveLength(r.cases.length);
    for (const reason of [
      'found &quot;Lagos&quot;',
      'expected &quot;Paris&quot; not found in the output',
      'get_weather was never called',
      'polite &lt;b&gt;and&lt;/b&gt; correct',
    ])
      expect(html).toContain(reason);
  });

  test('a case’s transcript shows roles, the tool call with its args and the tool result', () => {
    const lagos = html.slice(html.indexOf('id="case-0"'), html.indexOf('id="case-1"'));
    expect(lagos).toContain('<span class="role">system</span>');
    expect(lagos).toContain('→ calls <b>get_weather</b> <code>call_1</code>');
    expect(lagos).toContain('&quot;city&quot;: &quot;Lagos&quot;');
    expect(lagos).toContain('result of <b>get_weather</b> <code>call_1</code>');
    expect(lagos).toContain('{&quot;temp&quot;:31,&quot;sky&quot;:&quot;sunny&quot;}');
    expect(lagos).toContain('It is sunny in Lagos, 31 °C.');
    expect(lagos).toContain('2 requests · 2 turns');
    expect(lagos).toContain('replayed from cassette');
  });

  test('a task error shows its name, stage and message', () => {
    expect(html).toContain(
      '<div class="error"><b>RunError [model]</b>: HTTP 500 from the provider</div>',
    );
  });

  test('an evaluator that threw shows its error', () => {
    const page = renderHtml(
      report([caseOf('a', [run({ scores: [verdict('judge', false, { error: 'timed <out>' })] })])]),
    );
    expect(page).toContain('threw: timed &lt;out&gt;');
    expect(page).toContain('✗ error');
  });

  test('repeated runs are numbered', () => {
    const flaky = html.slice(html.indexOf('id="case-3"'));
    expect(flaky).toContain('<h3>Run 1 · passed</h3>');
    expect(flaky).toContain('<h3>Run 2 · failed</h3>');
    expect(flaky).toContain('◐ flaky');
  });

  test('title and metadata are shown, escaped', () => {
    const page = renderHtml(report([], { metadata: { model: '<gpt>' } }), {
      title: 'Nightly <run>',
    });
    expect(page).toContain('<title>Nightly &lt;run&gt;</title>');
    expect(page).toContain('<dt>model</dt><dd>&lt;gpt&gt;</dd>');
    expect(page).toContain('No cases.');
  });

  test('a comparison section lists cases by change with regressions first and highlighted', () => {
    const baseline = report(
      [simpleCase('steady', true), simpleCase('broke', true), simpleCase('<gone>', true)],
      {
        name: 'v1',
      },
    );
    const candidate = report(
      [simpleCase('steady', true), simpleCase('broke', false), simpleCase('new', true)],
      {
        name: 'v2',
      },
    );
    const comparison = compareReports(baseline, candidate);
    const page = renderHtml(candidate, {
      comparison: {
        ...comparison,
        cases: comparison.cases.map((c) =>
          c.name === 'broke'
            ? { ...c, preferred: 'baseline' as const, reason: 'lost <detail>' }
            : c,
        ),
      },
    });
    const section = page.slice(page.indexOf('id="comparison"'), page.indexOf('id="cases"'));
    expect(section).toContain('<h2>Compared with v1</h2>');
    const rows = [...section.matchAll(/<tr class="(\w+)">/g)].map((m) => m[1]);
    expect(rows).toEqual(['regressed', 'added', 'removed', 'unchanged']);
    expect(section).toContain('<td class="name">broke</td>');
    expect(section).toContain('<td class="name">&lt;gone&gt;</td>');
    expect(section).toContain('prefers baseline</span> lost &lt;detail&gt;');
    expect(section).toContain('<div class="label">Regressions</div><div class="value">1</div>');
    // The cases table and the case's summary carry the change too.
    expect(page).toContain('<th>vs baseline</th>');
    expect(page.slice(page.indexOf('id="case-1"'))).toContain(
      '<span class="badge fail">regressed</span>',
    );
  });

  test('without a comparison there is no comparison section', () => {
    expect(html).not.toContain('id="comparison"');
    expect(html).not.toContain('vs baseline');
  });
});
