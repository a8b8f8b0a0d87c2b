/**
 * Tools and dependencies: tools receive the run's typed `deps` (a database, the current user…)
 * through `ctx.deps` — no globals. With `parallelToolCalls`, independent calls from one model
 * response run concurrently; a tool marked `sequential` is a barrier that runs alone. Results are
 * always recorded in the order the model asked for them.
 */
import { Agent, ModelRetry, defineTool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The application's services, passed per run. */
interface ShopDeps {
  customer: string;
  stock: Map<string, number>;
  /** Instrumentation for this example: what ran, and how many tools were running at once. */
  trace: { running: number; log: string[] };
}

function skuOf(args: unknown): string {
  if (!isRecord(args) || typeof args.sku !== 'string') throw new ModelRetry('sku must be a string');
  return args.sku;
}

/** Runs `work` while recording how many tool executions overlap with it. */
async function traced(deps: ShopDeps, label: string, work: () => string): Promise<string> {
  deps.trace.running++;
  deps.trace.log.push(`${label} started (${deps.trace.running} running)`);
  // Yield once, as real I/O would; concurrent executions all start before any of them resumes.
  await new Promise((resolve) => setImmediate(resolve));
  deps.trace.running--;
  return work();
}

const checkStock = defineTool<ShopDeps, string>({
  name: 'check_stock',
  description: 'Units in stock for a SKU.',
  schema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  parse: skuOf,
  execute: (sku, ctx) =>
    traced(
      ctx.deps,
      `check_stock ${sku}`,
      () => `${sku}: ${ctx.deps.stock.get(sku) ?? 0} in stock`,
    ),
});

const reserveItem = defineTool<ShopDeps, string>({
  name: 'reserve_item',
  description: 'Reserve one unit of a SKU for the current customer.',
  schema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  parse: skuOf,
  // It writes: it must not overlap other calls. Earlier calls finish, it runs alone, then later ones.
  sequential: true,
  execute: (sku, ctx) =>
    traced(ctx.deps, `reserve_item ${sku}`, () => {
      const left = (ctx.deps.stock.get(sku) ?? 0) - 1;
      ctx.deps.stock.set(sku, left);
      return `reserved ${sku} for ${ctx.deps.customer} (${left} left)`;
    }),
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    toolCallResponse([
      { id: 'c1', name: 'check_stock', args: { sku: 'lamp' } },
      { id: 'c2', name: 'check_stock', args: { sku: 'desk' } },
      { id: 'c3', name: 'reserve_item', args: { sku: 'lamp' } },
      { id: 'c4', name: 'check_stock', args: { sku: 'lamp' } },
      { id: 'c5', name: 'check_stock', args: { sku: 'chair' } },
    ]),
    textResponse('Reserved a lamp; the desk is in stock, chairs are not.'),
  ]);
  // The type parameter makes `deps` required and typed on every run.
  const agent = new Agent<ShopDeps>({
    model,
    tools: [checkStock, reserveItem],
    parallelToolCalls: true,
  });

  const deps: ShopDeps = {
    customer: 'ada@example.com',
    stock: new Map([
      ['lamp', 3],
      ['desk', 1],
    ]),
    trace: { running: 0, log: [] },
  };
  const result = await agent.run('Reserve a lamp and check desks and chairs.', { deps });

  log('execution order:');
  for (const line of deps.trace.log) log(`  ${line}`);
  log('tool results, in the order the model asked:');
  for (const message of result.messages.filter((m) => m.role === 'tool'))
    log(`  [${message.toolCallId ?? ''}] ${message.content ?? ''}`);
  log(`output: ${result.output}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
