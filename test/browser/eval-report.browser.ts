/**
 * The eval HTML report in a real headless Chromium (OS packages) driven by playwright-core: the
 * page is set as content (no server), every request the page would make is recorded (there must
 * be none), the summary and a case's drill-down are checked, the injected script in a model
 * output must not run, and full-page screenshots are saved for a look (EVAL_REPORT_SHOTS, default
 * the OS temp folder).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { compareReports } from '../../src/evals/compare';
import { renderHtml } from '../../src/evals/html-report';
import {
  ATTRIBUTE_NAME,
  INJECTED_FLAG,
  SCRIPT_OUTPUT,
  caseOf,
  report,
  run,
  verdict,
  weatherReport,
} from '../evals/report-fixtures';
import { chromiumPath } from './chat-ui-app';

/** Flags for a closed network: no background connections, no first-run work, a fresh profile. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SHOTS = process.env.EVAL_REPORT_SHOTS ?? tmpdir();

let browser: Browser | undefined;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
    timeout: 30_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A page with `html` as its content, and the list of every request it made. */
async function open(
  html: string,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; requests: string[] }> {
  if (browser === undefined) throw new Error('beforeAll did not finish');
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.setContent(html, { waitUntil: 'load' });
  return { page, requests };
}

function injected(page: Page): Promise<unknown> {
  return page.evaluate(
    (flag) => (window as unknown as Record<string, unknown>)[flag],
    INJECTED_FLAG,
  );
}

test('the report shows its summary, opens a case with its reasons, runs no injected script and makes no request', async () => {
  const { page, requests } = await open(renderHtml(weatherReport()));

  const summary = page.locator('#summary');
  await summary.waitFor();
  expect(await summary.locator('.card').first().innerText()).toMatch(
    /PASS RATE\s+40%\s+2 of 5 runs passed/i,
  );
  expect(await page.locator('#cases tbody tr').count()).toBe(4);

  const paris = page.locator('details#case-1');
  expect(await paris.getAttribute('open')).toBeNull();
  const reason = paris.getByText('expected "Paris" not found in the output');
  expect(await reason.isVisible()).toBe(false);
  await paris.locator('summary').click();
  expect(await paris.getAttribute('open')).toBe('');
  await reason.waitFor({ state: 'visible' });
  // The output is shown as the text it is, markup and all.
  expect(await paris.locator('pre.output').textContent()).toBe(SCRIPT_OUTPUT);

  const lagos = page.locator('details#case-0');
  await lagos.locator('summary').click();
  await lagos.getByText('→ calls get_weather call_1').waitFor({ state: 'visible' });
  expect(await lagos.locator('.msg').count()).toBe(5);

  // The attribute-injection case: hovering its summary runs nothing either.
  const hostile = page.locator('details#case-3');
  expect(await hostile.getAttribute('data-case')).toBe(ATTRIBUTE_NAME);
  await hostile.locator('summary').hover();
  await hostile.locator('summary').click();

  expect(await injected(page)).toBeUndefined();
  expect(requests).toEqual([]);
  await page.screenshot({ path: join(SHOTS, 'eval-report.png'), fullPage: true });
  await page.context().close();
});

test('the drill-down and the case links work with JavaScript off', async () => {
  const { page } = await open(renderHtml(weatherReport()), { javaScriptEnabled: false });
  const tokyo = page.locator('details#case-2');
  await tokyo.locator('summary').click();
  await tokyo.getByText('HTTP 500 from the provider').waitFor({ state: 'visible' });
  // A case's link in the table opens its details: it targets the details' body, and fragment
  // navigation to content inside a closed <details> opens it.
  const paris = page.locator('details#case-1');
  expect(await paris.getAttribute('open')).toBeNull();
  await page.locator('#cases a[href="#case-1-body"]').click();
  await paris.getByText('get_weather was never called').waitFor({ state: 'visible' });
  await page.context().close();
});

test('the comparison page highlights regressions and makes no request', async () => {
  const baseline = report(
    [
      caseOf('lagos', [run({ output: 'Sunny in Lagos.', scores: [verdict('contains', true)] })]),
      caseOf('paris', [
        run({
          output: 'Cloudy in Paris.',
          scores: [verdict('contains', true), verdict('calledTool(get_weather)', true)],
        }),
      ]),
      caseOf('berlin', [run({ output: 'Rain in Berlin.', scores: [verdict('contains', true)] })]),
    ],
    { name: 'weather-agent@v1' },
  );
  const candidate = weatherReport();
  const comparison = compareReports(baseline, candidate);
  const judged = {
    ...comparison,
    cases: comparison.cases.map((c) =>
      c.name === 'paris'
        ? {
            ...c,
            preferred: 'baseline' as const,
            reason: 'The baseline names the city; the candidate answers with markup.',
          }
        : c,
    ),
  };
  const { page, requests } = await open(renderHtml(candidate, { comparison: judged }));
  const regressed = page.locator('#comparison tr.regressed');
  expect(await regressed.count()).toBe(1);
  expect(await regressed.locator('td.name').textContent()).toBe('paris');
  expect(
    await regressed
      .locator('td')
      .first()
      .evaluate((td) => getComputedStyle(td).backgroundColor),
  ).toBe('rgb(253, 236, 234)');
  await page.getByText('The baseline names the city').waitFor({ state: 'visible' });
  expect(await injected(page)).toBeUndefined();
  expect(requests).toEqual([]);
  await page.screenshot({ path: join(SHOTS, 'eval-compare.png'), fullPage: true });
  await page.context().close();
});
