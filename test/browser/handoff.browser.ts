/**
 * A handoff through the chat UI in a real browser: headless Chromium (OS packages) driven by
 * playwright-core against a loopback server whose `POST /api/chat` is one `pipeChat` call on a
 * triage agent that hands off to billing (scripted streaming models). The page assembles the
 * stream with the AI SDK's client (`DefaultChatTransport`, `readUIMessageStream`, bundled by
 * esbuild); every wait is on a DOM condition.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Agent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { pipeChat } from 'golem/ui';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './chat-ui-app';

const BILLING_ANSWER = 'Billing here: your refund of 42.00 EUR is on its way.';

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

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>handoff</title></head>
<body><main data-status="loading"><form><input aria-label="Message"><button>Send</button></form></main>
<script type="module" src="/page.js"></script></body></html>`;

/** Triage hands off to billing on its first turn; billing answers. Fresh models per request. */
function triageAgent(): Agent {
  const billing = new Agent({
    name: 'billing',
    model: new ScriptedModel([textResponse(BILLING_ANSWER)]),
    instructions: 'You are billing.',
  });
  return new Agent({
    name: 'triage',
    model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
    instructions: 'Route the customer.',
    handoffs: [billing],
  });
}

let server: Server | undefined;
let url = '';
let browser: Browser | undefined;

beforeAll(async () => {
  const executablePath = chromiumPath();
  const bundled = await build({
    entryPoints: [join(__dirname, 'handoff-page.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0]?.text ?? '';
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/chat') {
      void pipeChat(triageAgent(), req, res);
      return;
    }
    const [type, body] =
      req.url === '/page.js' ? ['text/javascript', script] : ['text/html; charset=utf-8', PAGE];
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`;
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS, timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  const open = server;
  if (open !== undefined)
    await new Promise<void>((resolve) => {
      open.close(() => {
        resolve();
      });
      open.closeAllConnections();
    });
});

test('a handoff shows the transfer output, a data-handoff part and the target answer', async () => {
  if (browser === undefined) throw new Error('beforeAll did not finish');
  const page = await browser.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(url);
  await page.locator('main[data-status="ready"]').waitFor();
  await page.getByRole('textbox', { name: 'Message' }).fill('I was charged twice.');
  await page.getByRole('button', { name: 'Send' }).click();

  const assistant = page.getByTestId('message-assistant');
  await assistant.getByText(BILLING_ANSWER).waitFor();
  await page.locator('main[data-status="ready"]').waitFor();

  const transfer = assistant.getByTestId('tool-transfer_to_billing');
  expect(await transfer.getAttribute('data-state')).toBe('output-available');
  expect(await transfer.textContent()).toBe('Transferred to billing. Continue as billing.');
  const handoff = assistant.getByTestId('data-handoff');
  expect(await handoff.count()).toBe(1);
  expect(JSON.parse((await handoff.textContent()) ?? '')).toEqual({
    from: 'triage',
    to: 'billing',
    callId: 't1',
  });
  // The order in the message: the transfer, the handoff, then billing's answer.
  const order = await assistant
    .locator('p')
    .evaluateAll((parts) => parts.map((p) => p.getAttribute('data-testid')));
  expect(order.filter((id) => id !== 'step-start')).toEqual([
    'tool-transfer_to_billing',
    'data-handoff',
    'text',
  ]);
  expect(await assistant.getByTestId('text').textContent()).toBe(BILLING_ANSWER);
  await page.close();
});
