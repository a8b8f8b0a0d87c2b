/**
 * The chat UI example in a real browser: headless Chromium (OS packages) driven by playwright-core
 * against the example's server. A message streams text into the page, the `get_weather` call shows
 * its output, the paused `book_table` call offers Approve / Deny, and the decision resumes the run
 * into a final answer. Every wait is on a DOM condition; the screenshot the guide shows is saved to
 * docs/guides/images/chat-ui.png.
 */
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  buildPage,
  checkPrerequisites,
  chromiumPath,
  startServer,
  type RunningServer,
} from './chat-ui-app';

const IMAGES = join(__dirname, '..', '..', 'docs', 'guides', 'images');

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

let server: RunningServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  const executablePath = chromiumPath();
  checkPrerequisites();
  buildPage();
  server = await startServer();
  // playwright-core launches with a new temporary --user-data-dir of its own.
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: 30_000 });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openChat(): Promise<Page> {
  if (browser === undefined || server === undefined) throw new Error('beforeAll did not finish');
  const page = await browser.newPage({ viewport: { width: 760, height: 520 } });
  page.setDefaultTimeout(20_000);
  await page.goto(server.url);
  await page.locator('main[data-status="ready"]').waitFor();
  return page;
}

/** What the page showed while the answer streamed (see {@link recordProgress}). */
interface Progress {
  /** Each length the first assistant text reached. */
  textLengths: number[];
  /** Each state the `get_weather` part showed. */
  toolStates: string[];
}

/**
 * Records, from every DOM mutation on, the lengths the first assistant text reaches and the
 * states the `get_weather` part shows: a streamed answer grows in several steps (a buffered one
 * appears at once), and a tool call is on screen while its arguments still arrive.
 */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const progress: Progress = { textLengths: [], toolStates: [] };
    Object.assign(window, { progress });
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="message-assistant"] [data-testid="text"]');
      const length = text?.textContent.length ?? 0;
      if (length > 0 && progress.textLengths.at(-1) !== length) progress.textLengths.push(length);
      const state = document
        .querySelector('[data-testid="tool-get_weather"]')
        ?.getAttribute('data-state');
      if (state != null && progress.toolStates.at(-1) !== state) progress.toolStates.push(state);
    }).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
    });
  });
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Waits for the paused `book_table` call after the streamed first part of the answer. */
async function untilApprovalRequested(page: Page): Promise<void> {
  const assistant = page.getByTestId('message-assistant');
  await assistant.getByText('Let me check the weather in Lagos first.').waitFor();
  await assistant
    .locator('[data-testid="tool-get_weather"][data-state="output-available"]')
    .waitFor();
  await assistant
    .locator('[data-testid="tool-book_table"][data-state="approval-requested"]')
    .waitFor();
}

test('a message streams text, runs a tool, waits for approval and finishes once approved', async () => {
  const page = await openChat();
  await recordProgress(page);
  await send(page, 'Plan a dinner in Lagos tonight.');
  await untilApprovalRequested(page);

  const weather = page.getByTestId('tool-output-get_weather');
  expect(await weather.textContent()).toContain('sunny');
  const progress = await page.evaluate(
    () => (window as unknown as { progress: Progress }).progress,
  );
  // Streamed word by word: the first text grew in several steps up to its full length.
  expect(progress.textLengths.length).toBeGreaterThan(2);
  expect(progress.textLengths.at(-1)).toBe('Let me check the weather in Lagos first.'.length);
  // The call was on screen while its arguments streamed in, and ended with its output.
  expect(progress.toolStates[0]).toBe('input-streaming');
  expect(progress.toolStates.at(-1)).toBe('output-available');
  // The run is paused, not running: the page is ready for the decision.
  await page.locator('main[data-status="ready"]').waitFor();
  await page
    .getByTestId('tool-book_table')
    .screenshot({ path: join(IMAGES, 'chat-ui-approval.png') });

  await page.getByRole('button', { name: 'Approve' }).click();
  const assistant = page.getByTestId('message-assistant');
  await assistant.getByText('Booked: a table for 2 at Terra Kitchen at 19:30').waitFor();
  await assistant
    .locator('[data-testid="tool-book_table"][data-state="output-available"]')
    .waitFor();
  await page.locator('main[data-status="ready"]').waitFor();

  // One assistant message holds the whole exchange, the continuation included.
  expect(await assistant.count()).toBe(1);
  expect(await page.getByTestId('tool-output-book_table').textContent()).toContain('TE-1930');
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

  await page.screenshot({ path: join(IMAGES, 'chat-ui.png'), fullPage: true });
  await page.close();
});

test('denying the call resumes the run without executing it', async () => {
  const page = await openChat();
  await send(page, 'Plan a dinner in Lagos tonight.');
  await untilApprovalRequested(page);

  await page.getByRole('button', { name: 'Deny' }).click();
  const assistant = page.getByTestId('message-assistant');
  await assistant.getByText('Understood, I did not book anything.').waitFor();
  await assistant.locator('[data-testid="tool-book_table"][data-state="output-denied"]').waitFor();
  await page.locator('main[data-status="ready"]').waitFor();
  expect(await page.getByTestId('tool-output-book_table').count()).toBe(0);
  expect(await page.getByRole('alert').count()).toBe(0);
  await page.close();
});
