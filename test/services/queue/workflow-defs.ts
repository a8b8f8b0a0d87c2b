/**
 * The workflows of the queued-workflow suites, shared by the test process and the worker
 * processes (workflow-child.ts): `fanout` (a step, three parallel steps, a step; each appends
 * `<runId> <step>` to the effects file before it returns), `approval` (a decision, then an event)
 * and `napper` (a step, a durable sleep, a step).
 */
import { appendFileSync } from 'node:fs';
import { defineWorkflow } from 'golem/workflows';
import { objectSchema } from '../../src/workflows/support';

/** What the worker process tells the workflows: where effects go, which step hangs. */
export const hooks: {
  effects?: string;
  /** The step key whose body announces itself (`onHang`) and never returns, before its effect. */
  hangAt?: string;
  onHang?: (step: string) => void;
} = {};

function effect(runId: string, step: string): void {
  if (hooks.effects !== undefined) appendFileSync(hooks.effects, `${runId} ${step}\n`);
}

async function body(runId: string, step: string, value: number): Promise<number> {
  if (hooks.hangAt === step) {
    hooks.onHang?.(step);
    await new Promise<never>(() => undefined);
  }
  effect(runId, step);
  return value;
}

/** A step, three steps in parallel, a step. */
export const fanout = defineWorkflow({
  name: 'fanout',
  async run(input: { base: number }, wf) {
    const base = await wf.step('prepare', (ctx) => body(ctx.runId, ctx.step, input.base));
    const parts = await Promise.all(
      ['a', 'b', 'c'].map((name, i) =>
        wf.step(name, (ctx) => body(ctx.runId, ctx.step, base + i + 1)),
      ),
    );
    return wf.step('finish', (ctx) =>
      body(
        ctx.runId,
        ctx.step,
        parts.reduce((sum, n) => sum + n, 0),
      ),
    );
  },
});

const Decision = objectSchema<{ approved: boolean }>({ approved: 'boolean' });
const Payment = objectSchema<{ cents: number }>({ cents: 'number' });

/** A manager's decision (`ctx.suspend`), then a payment event when approved. */
export const approval = defineWorkflow({
  name: 'approval',
  async run(input: { amount: number }, wf) {
    const decision = await wf.step('approve', (ctx) =>
      ctx.suspend({ reason: 'manager approval', schema: Decision, payload: input }),
    );
    if (!decision.approved) return { status: 'rejected' };
    const paid = await wf.waitForEvent('payment', Payment);
    return { status: 'paid', cents: paid.cents };
  },
});

/** A step, a durable sleep of `ms`, a step. */
export const napper = defineWorkflow({
  name: 'napper',
  async run(input: { ms: number }, wf) {
    await wf.step('before', () => 'up');
    await wf.sleep('nap', input.ms);
    return wf.step('after', () => 'awake');
  },
});

/** Every workflow of the suites. */
export const WORKFLOWS = [fanout, approval, napper];
