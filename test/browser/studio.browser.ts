/**
 * Golem Studio in a real headless Chromium (OS packages) driven by playwright-core: the built app
 * (dist/studio/app) served by `createStudio` on loopback over a SQLite store seeded with real
 * agent runs (scripted models). Lists and opens runs, approves a pending call and watches the run
 * complete over the live stream, replays a run from a checkpoint with a changed tool result and
 * compares, streams a playground chat, and checks the token handling. Every wait is on a DOM
 * condition; each step's screenshot goes to test-artifacts/studio/<name>.png (CI artifacts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadRun } from 'golem';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from './chat-ui-app';
import { GREETING, SHOTS, checkStudioBuilt, startStudioApp, type StudioApp } from './studio-app';

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

let browser: Browser | undefined;
let app: StudioApp | undefined;
/** Console reports of the page's Content Security Policy blocking something (must stay empty). */
let violations: string[] = [];

beforeAll(async () => {
  checkStudioBuilt();
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_FLAGS,
    timeout: 30_000,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  violations = [];
  app = await startStudioApp();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
  // The studio serves its pages with a strict CSP (its own scripts and styles only): the app
  // must work within it.
  expect(violations).toEqual([]);
});

function running(): StudioApp {
  if (app === undefined) throw new Error('beforeEach did not finish');
  return app;
}

/** A fresh browser context (empty sessionStorage) on `hash`, with or without the token. */
async function open(hash: string, withToken = true): Promise<Page> {
  if (browser === undefined) throw new Error('beforeAll did not finish');
  const studio = running();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  page.setDefaultTimeout(10_000);
  const query = withToken ? `?token=${encodeURIComponent(studio.studio.token)}` : '';
  await page.goto(`${studio.base}/${query}${hash}`);
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** The run-status badge of the run page (`data-status` is the run's status). */
function runStatus(page: Page, status: string) {
  return page.locator(
    `[data-testid="run-page"] [data-testid="run-status"][data-status="${status}"]`,
  );
}

test('the runs list shows the seeded runs; a click opens the paused run', async () => {
  const page = await open('#/runs');
  const rows = page.getByTestId('run-row');
  await page.locator('[data-testid="run-row"][data-run-id="flaky-failed"]').waitFor();
  const seen = await rows.evaluateAll((els) =>
    els.map(
      (el) => `${el.getAttribute('data-run-id') ?? ''}:${el.getAttribute('data-status') ?? ''}`,
    ),
  );
  expect(seen.sort()).toEqual([
    'booking-paused:paused',
    'flaky-failed:failed',
    'support-done:completed',
  ]);
  await shot(page, 'runs-list');

  await page.locator('[data-testid="run-row"][data-run-id="booking-paused"]').click();
  await page.locator('[data-testid="run-page"][data-run-id="booking-paused"]').waitFor();
  expect(page.url()).toMatch(/#\/runs\/booking-paused$/);
  await runStatus(page, 'paused').waitFor();
  const call = page.locator('[data-testid="pending-call"][data-call-id="b1"]');
  await call.waitFor();
  expect(await call.innerText()).toContain('book');
  expect(await call.innerText()).toContain('Friday');
  await shot(page, 'run-paused');
  await page.context().close();
});

test('the failed run shows its stage and message', async () => {
  const page = await open('#/runs/flaky-failed');
  await runStatus(page, 'failed').waitFor();
  const failure = page.getByTestId('run-error');
  expect(await failure.innerText()).toMatch(/Failed at model[\s\S]*provider down: HTTP 503/);
  await shot(page, 'run-failed');
  await page.context().close();
});

test('approving the pending call completes the run over the live stream; the tool ran once', async () => {
  const studio = running();
  const page = await open('#/runs/booking-paused');
  await runStatus(page, 'paused').waitFor();
  expect(studio.log.booked).toEqual([]);
  await page.getByTestId('reason-b1').fill('within budget');
  await page.getByTestId('approve-b1').click();
  // The page never reloads: the run stream brings the completed run.
  await runStatus(page, 'completed').waitFor();
  await page.getByTestId('pending-panel').waitFor({ state: 'detached' });
  await page.getByTestId('run-output').getByText('Done: booked: room 12').waitFor();
  const results = page.getByTestId('tool-result');
  expect(await results.first().innerText()).toContain('booked: room 12');
  await shot(page, 'run-approved');
  await studio.studio.close();
  expect(studio.log.booked).toEqual(['Friday']);
  expect((await loadRun(studio.store, 'booking-paused')).status).toBe('completed');
  expect(studio.errors).toEqual([]);
  await page.context().close();
});

test('replay from checkpoint 1 with a changed tool result: compare shows both; the original is unchanged', async () => {
  const studio = running();
  const before = await studio.store.getRun('support-done');
  const page = await open('#/runs/support-done');
  await runStatus(page, 'completed').waitFor();
  await page.getByTestId('replay-from-1').click();
  const dialog = page.getByTestId('replay-dialog');
  await dialog.waitFor();
  const result = page.getByTestId('replay-tool-l1');
  expect(await result.inputValue()).toBe('shipped');
  await result.fill('lost in transit');
  await shot(page, 'replay-dialog');
  await page.getByTestId('replay-submit').click();

  await page.waitForURL(/#\/compare\/support-done\/replay-[0-9a-f-]{36}$/);
  const left = page.getByTestId('compare-left');
  const right = page.getByTestId('compare-right');
  expect(await left.getAttribute('data-run-id')).toBe('support-done');
  const replayId = (await right.getAttribute('data-run-id')) ?? '';
  expect(replayId).toMatch(/^replay-/);
  await right.locator('[data-testid="run-status"][data-status="completed"]').waitFor();
  await right.getByTestId('turn-text').getByText('Your order is lost in transit.').waitFor();
  await left.getByTestId('turn-text').getByText('Your order is shipped.').waitFor();
  await shot(page, 'compare');

  await studio.studio.close();
  expect(await studio.store.getRun('support-done')).toEqual(before);
  const replayed = await loadRun(studio.store, replayId);
  expect(replayed.status).toBe('completed');
  expect(replayed.output).toBe('Your order is lost in transit.');
  expect(studio.log.lookedUp).toEqual([]); // the kept tool result was not recomputed
  expect(studio.errors).toEqual([]);
  await page.context().close();
});

test('the playground streams the agent answer into an assistant message', async () => {
  const studio = running();
  const page = await open('#/playground');
  const agent = page.getByTestId('playground-agent');
  await agent.waitFor();
  await agent.selectOption('greeter');
  await page.getByTestId('chat-input').fill('Hi there');
  await page.getByTestId('chat-send').click();
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  await answer.getByText(GREETING).waitFor();
  await page
    .locator('[data-testid="chat-message"][data-role="user"]')
    .getByText('Hi there')
    .waitFor();
  await page.getByTestId('chat-send').waitFor(); // streaming over: Send is back
  await shot(page, 'playground');
  const runs = await studio.store.listRuns({ agent: 'greeter' });
  expect(runs.map((run) => run.status)).toEqual(['completed']);
  await page.context().close();
});

test('without a token the error banner says so; with one, the token leaves the address bar', async () => {
  const denied = await open('#/runs', false);
  const banner = denied.getByTestId('error-banner');
  await banner.waitFor();
  expect(await banner.innerText()).toContain('Not authorized');
  expect(await denied.getByTestId('run-row').count()).toBe(0);
  await shot(denied, 'no-token');
  await denied.context().close();

  const page = await open('#/runs');
  await page.getByTestId('run-row').first().waitFor();
  const url = new URL(page.url());
  expect(url.searchParams.has('token')).toBe(false);
  expect(page.url()).not.toContain(running().studio.token);
  expect(url.hash).toBe('#/runs');
  // The token lives in this tab's sessionStorage: a reload without it still works.
  await page.reload();
  await page.getByTestId('run-row').first().waitFor();
  expect(await page.getByTestId('error-banner').count()).toBe(0);
  await page.context().close();
});
