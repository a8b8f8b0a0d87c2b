/**
 * The screenshots of the Golem Studio guide: `node scripts/docs/studio-screenshots.mjs`.
 *
 * Seeds a SQLite store (temp folder) with realistic runs of a support agent (tools, thinking
 * blocks, a refund waiting for approval, a provider failure), writes two eval reports, posts an
 * OTLP/HTTP JSON export for one run, serves `createStudio` on loopback with the built app
 * (`npm run build:studio` first) and saves 1280×800 screenshots of its pages in headless Chromium
 * (/usr/bin/chromium or CHROMIUM_PATH) to docs/guides/images/studio-<page>.png. Loads the
 * TypeScript sources through @swc-node/register (golem/studio is not an entry point yet). Every
 * wait is on a DOM condition; models are scripted, nothing leaves the machine.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const APP_DIR = join(ROOT, 'dist', 'studio', 'app');
const OUT = join(ROOT, 'docs', 'guides', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MAX_BYTES = 250 * 1024;

if (!existsSync(join(APP_DIR, 'index.html'))) {
  console.error('the studio app is not built: run `npm run build:studio` first.');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(
    `Chromium is missing: no executable at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

const require = createRequire(import.meta.url);
require('@swc-node/register');
const { Agent, defineTool } = require('../../src/core/index.ts');
const { sqliteStore } = require('../../src/stores/sqlite/index.ts');
const { FunctionModel, StreamFunctionModel, textResponse } = require('../../src/testing/index.ts');
const {
  defineDataset,
  runExperiment,
  contains,
  calledTool,
  writeReport,
} = require('../../src/evals/index.ts');
const { createStudio } = require('../../src/studio/index.ts');
const { chromium } = require('playwright-core');

const ORDERS = {
  'A-1042': 'shipped on Monday, arriving Thursday',
  'A-1077': 'delivered yesterday to the parcel locker',
  'A-1101': 'waiting for stock (ETA 5 days)',
};

const usage = (inputTokens, outputTokens) => ({ inputTokens, outputTokens });

/** The support agent's tools: `lookup_order`, and `refund` which needs a human's approval. */
function supportTools() {
  const lookup = defineTool({
    name: 'lookup_order',
    description: 'Finds an order and its shipping status by id.',
    schema: {
      type: 'object',
      properties: { order: { type: 'string', description: 'The order id, e.g. A-1042' } },
      required: ['order'],
    },
    execute: ({ order }) =>
      JSON.stringify({ order, status: ORDERS[order] ?? 'unknown order', carrier: 'DHL' }),
  });
  const refund = defineTool({
    name: 'refund',
    description: 'Refunds an order (a human approves every refund).',
    schema: {
      type: 'object',
      properties: { order: { type: 'string' }, amount: { type: 'number' } },
      required: ['order', 'amount'],
    },
    approval: true,
    execute: ({ order, amount }) => `refunded ${amount.toFixed(2)} EUR on ${order}`,
  });
  return [lookup, refund];
}

/** A scripted support model: thinks, looks the order up (or asks for a refund), then answers. */
function supportTurn(request) {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  const prompt = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const order = /A-\d{4}/.exec(prompt)?.[0] ?? 'A-1042';
  if (last?.role === 'tool') {
    if (last.toolName === 'refund')
      return textResponse(
        `Done — ${last.content}. You will see it within 3–5 business days.`,
        usage(812, 31),
      );
    const status = JSON.parse(last.content ?? '{}').status ?? 'unknown';
    return {
      message: {
        role: 'assistant',
        content: `Order ${order} is ${status}. Anything else I can help with?`,
        thinking: [{ text: `The tool says "${status}". Answer briefly and offer more help.` }],
      },
      usage: usage(640, 24),
      finishReason: 'stop',
    };
  }
  const wantsRefund = /refund/i.test(prompt);
  return {
    message: {
      role: 'assistant',
      thinking: [
        {
          text: wantsRefund
            ? `The customer asks for a refund of ${order}. Refunds need approval: call refund.`
            : `The customer asks about ${order}. Look the order up before answering.`,
        },
      ],
      toolCalls: [
        wantsRefund
          ? { id: 'call_refund_1', name: 'refund', args: JSON.stringify({ order, amount: 49.9 }) }
          : { id: 'call_lookup_1', name: 'lookup_order', args: JSON.stringify({ order }) },
      ],
    },
    usage: usage(512, 38),
    finishReason: 'tool_calls',
  };
}

function supportAgent() {
  return new Agent({
    name: 'support',
    description: 'Answers order questions; refunds need approval.',
    instructions: 'You are a concise, friendly support agent for an online shop.',
    model: new FunctionModel(supportTurn, { name: 'support-model' }),
    tools: supportTools(),
    deferredTools: true,
  });
}

function triageAgent(failing) {
  return new Agent({
    name: 'triage',
    description: 'Routes incoming e-mails.',
    model: new FunctionModel(() => {
      if (failing.value)
        throw new Error('provider error: HTTP 503 Service Unavailable (overloaded)');
      return textResponse('Routed to billing.', usage(210, 6));
    }),
  });
}

/** `answer` streamed word by word: the playground's model. */
const chatModel = new StreamFunctionModel(async (request, emit) => {
  const answer =
    'Hi! I can look up orders, explain shipping times and start refunds (a human approves each one). What is your order number?';
  for (const word of answer.split(/(?<= )/)) await emit({ content: word });
  return textResponse(answer, usage(120, 28));
});

/** The OTLP/HTTP JSON export of one traced support run (an agent span, two chats, a tool). */
function otlpExport(runId, start) {
  const ns = (ms) => String(BigInt(Math.round(start + ms)) * 1_000_000n);
  const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const str = (key, value) => ({ key, value: { stringValue: value } });
  const int = (key, value) => ({ key, value: { intValue: String(value) } });
  const dbl = (key, value) => ({ key, value: { doubleValue: value } });
  const price = (total) => [dbl('golem.cost.total', total), str('golem.cost.currency', 'USD')];
  const guardrail = (ms, name, phase, outcome) => ({
    name: 'golem.guardrail',
    timeUnixNano: ns(ms),
    attributes: [
      str('golem.guardrail.name', name),
      str('golem.guardrail.phase', phase),
      str('golem.guardrail.outcome', outcome),
    ],
  });
  const span = (spanId, parent, name, from, to, attributes, error = false, events = []) => ({
    traceId: trace,
    spanId,
    ...(parent && { parentSpanId: parent }),
    name,
    kind: 1,
    startTimeUnixNano: ns(from),
    endTimeUnixNano: ns(to),
    attributes,
    ...(events.length > 0 && { events }),
    status: { code: error ? 2 : 1 },
  });
  const root = '00f067aa0ba902b7';
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'shop-support')] },
        scopeSpans: [
          {
            scope: { name: 'golem' },
            spans: [
              span(
                root,
                '',
                'invoke_agent support',
                0,
                2310,
                [str('golem.run.id', runId), str('gen_ai.agent.name', 'support')],
                false,
                [
                  guardrail(4, 'on-topic', 'input', 'pass'),
                  guardrail(2302, 'no-card-numbers', 'output', 'pass'),
                ],
              ),
              span(
                'a1a1a1a1a1a1a1a1',
                root,
                'chat gpt-4o-mini',
                12,
                402,
                [int('golem.turn', 0), int('golem.attempt', 1)],
                true,
              ),
              span('a2a2a2a2a2a2a2a2', root, 'chat gpt-4o-mini', 905, 1390, [
                int('golem.turn', 0),
                int('golem.attempt', 2),
                int('gen_ai.usage.input_tokens', 512),
                int('gen_ai.usage.output_tokens', 38),
                ...price(0.000099),
              ]),
              span('b1b1b1b1b1b1b1b1', root, 'execute_tool lookup_order', 1395, 1610, [
                str('gen_ai.tool.name', 'lookup_order'),
              ]),
              span('c1c1c1c1c1c1c1c1', root, 'chat gpt-4o-mini', 1620, 2300, [
                int('golem.turn', 1),
                int('golem.attempt', 1),
                int('gen_ai.usage.input_tokens', 640),
                int('gen_ai.usage.output_tokens', 24),
                ...price(0.00011),
              ]),
            ],
          },
        ],
      },
    ],
  };
}

/** Two eval reports of the support agent: the baseline and a candidate that regressed a case. */
async function writeEvalReports(folder) {
  const dataset = defineDataset({
    name: 'support-orders',
    cases: Object.entries(ORDERS).map(([order, status]) => ({
      name: `status of ${order}`,
      input: `Where is my order ${order}?`,
      expected: status,
    })),
  });
  const evaluators = [contains(), calledTool('lookup_order')];
  const base = await runExperiment({
    name: 'support v1',
    dataset,
    task: supportAgent(),
    evaluators,
  });
  await writeReport(base, { json: join(folder, 'support-v1.json') });
  const lazy = new Agent({
    name: 'support',
    model: new FunctionModel((request) => {
      const prompt = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      return /1101/.test(prompt)
        ? textResponse('It should arrive soon.', usage(300, 8))
        : supportTurn(request);
    }),
    tools: supportTools(),
    deferredTools: true,
  });
  const candidate = await runExperiment({ name: 'support v2', dataset, task: lazy, evaluators });
  await writeReport(candidate, { json: join(folder, 'support-v2.json') });
}

async function post(base, token, path, body) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'golem-studio-shots-'));
  const reports = join(dir, 'reports');
  mkdirSync(reports);
  const store = sqliteStore({ path: join(dir, 'runs.db') });
  const support = supportAgent();
  const failing = { value: true };
  const triage = triageAgent(failing);
  const greeter = new Agent({
    name: 'concierge',
    description: 'Greets shoppers and points them to the right place.',
    model: chatModel,
  });

  const questions = [
    ['run-7f3a91c2', 'Where is my order A-1042?', 'ann@shop.test'],
    ['run-52d0be18', 'Has A-1077 been delivered?', 'bob@shop.test'],
    ['run-c41e0d77', 'Any news on order A-1101?', 'ann@shop.test'],
    ['run-9b26f4e0', 'Where is A-1042 now?', 'chen@shop.test'],
  ];
  for (const [runId, prompt, owner] of questions)
    await support.run(prompt, { store, runId, owner, conversation: `conv-${runId.slice(4)}` });
  await support.run('Please refund order A-1077, the box was damaged.', {
    store,
    runId: 'run-e8812a5d',
    owner: 'bob@shop.test',
  });
  await triage
    .run('Invoice #8812 is wrong, please fix it.', {
      store,
      runId: 'run-1d9c3b60',
      owner: 'dana@shop.test',
    })
    .catch(() => undefined);
  failing.value = false;
  await triage.run('Do you ship to Norway?', {
    store,
    runId: 'run-3aa7c915',
    owner: 'eve@shop.test',
  });
  await writeEvalReports(reports);

  const studio = createStudio({
    store,
    agents: [support, triage, greeter],
    models: { 'gpt-4o-mini': chatModel, 'claude-haiku': chatModel },
    reports,
    appDir: APP_DIR,
    pollMs: 200,
    onError: (error, info) => console.error(`studio error ${info.where}:`, error),
  });
  const server = createServer((req, res) => void studio.handle(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  await post(base, studio.token, '/v1/traces', otlpExport('run-7f3a91c2', Date.now() - 60_000));
  const { runId: replayId } = await post(base, studio.token, '/api/runs/run-c41e0d77/replay', {
    fromTurn: 1,
    toolResults: {
      call_lookup_1: JSON.stringify({
        order: 'A-1101',
        status: 'shipped this morning',
        carrier: 'DHL',
      }),
    },
  });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  mkdirSync(OUT, { recursive: true });
  const written = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const shot = async (name) => {
      const path = join(OUT, `studio-${name}.png`);
      await page.screenshot({ path });
      written.push(path);
    };
    await page.goto(`${base}/?token=${encodeURIComponent(studio.token)}#/runs`);
    await page.locator('[data-testid="run-row"][data-run-id="run-3aa7c915"]').waitFor();
    await page
      .locator(`[data-testid="run-row"][data-run-id="${replayId}"][data-status="completed"]`)
      .waitFor();
    await shot('runs');

    await page.goto(`${base}/#/runs/run-e8812a5d`);
    await page.getByTestId('pending-call').waitFor();
    await page
      .locator('[data-testid="thinking"]')
      .first()
      .evaluate((el) => el.setAttribute('open', ''));
    await shot('run');

    await page.goto(`${base}/#/runs/run-7f3a91c2`);
    const waterfall = page.getByTestId('span-waterfall');
    await waterfall.waitFor();
    await waterfall.scrollIntoViewIfNeeded();
    await shot('spans');

    await page.goto(`${base}/#/compare/run-c41e0d77/${replayId}`);
    await page.getByTestId('compare-right').getByText('shipped this morning').first().waitFor();
    await shot('compare');

    await page.goto(`${base}/#/playground`);
    await page.getByTestId('playground-agent').selectOption('concierge');
    await page.getByTestId('chat-input').fill('Hello, what can you do for me?');
    await page.getByTestId('chat-send').click();
    await page
      .locator('[data-testid="chat-message"][data-role="assistant"]')
      .getByText('What is your order number?', { exact: false })
      .waitFor();
    await page.getByTestId('chat-send').waitFor();
    await shot('playground');

    await page.goto(`${base}/#/evals`);
    await page.getByTestId('eval-report-row').nth(1).waitFor();
    await page.getByTestId('eval-compare').click();
    await page.getByTestId('eval-comparison').waitFor();
    await shot('evals');
    await context.close();
  } finally {
    await browser.close();
    await studio.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  let tooBig = false;
  for (const path of written) {
    const size = statSync(path).size;
    tooBig ||= size > MAX_BYTES;
    console.log(`${path.slice(ROOT.length + 1)}  ${(size / 1024).toFixed(0)} kB`);
  }
  if (tooBig) {
    console.error(`a screenshot exceeds ${MAX_BYTES / 1024} kB`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
