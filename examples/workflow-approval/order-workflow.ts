/**
 * The order workflow of the workflow-approval example, as a decorated class: stock is reserved
 * and the order priced in parallel, the manager is e-mailed and approves it (the run suspends), a
 * cool-off timer gives the customer a day to cancel, then the card is charged. Each `@Step` method called from
 * `run` is a durable step: its output is checkpointed, and after a crash it is replayed from the
 * checkpoint instead of running again. Both processes of the example load this file.
 */
import { appendFileSync } from 'node:fs';
import { IsInt, IsString, Min, MinLength } from 'class-validator';
import { Step, Workflow } from 'golem/decorators';
import type { StepContext, WorkflowContext } from 'golem/workflows';
import { z } from 'zod';

/** The workflow's input, validated when a run starts. */
export class OrderInput {
  @IsString() @MinLength(1) orderId!: string;
  @IsString() @MinLength(1) sku!: string;
  @IsInt() @Min(1) quantity!: number;
}

/** What `reserve` returns (validated before it is checkpointed, an instance when replayed). */
export class Reservation {
  @IsString() id!: string;
  @IsInt() quantity!: number;
}

/** What the manager is asked to approve. */
export class ApprovalRequest {
  @IsString() orderId!: string;
  @IsInt() @Min(0) totalCents!: number;
}

/** What the charge step gets. */
export class ChargeInput {
  @IsString() orderId!: string;
  @IsString() reservation!: string;
  @IsInt() @Min(0) totalCents!: number;
}

/** The manager's decision: `runner.resume(runId, decision)` must match it. */
export const Decision = z.object({ approved: z.boolean(), by: z.string().min(1) });
/** The decision's type. */
export type Decision = z.infer<typeof Decision>;

/** What a run of the workflow returns. */
export interface Receipt {
  orderId: string;
  status: 'charged' | 'rejected';
  totalCents: number;
  approvedBy: string;
  payment?: string;
}

/** The customer's cancellation window after approval: a durable timer, one day. */
export const COOL_OFF_MS = 24 * 60 * 60 * 1000;

/**
 * The shop the workflow talks to: every side effect is appended to a ledger file synchronously,
 * so what ran before a process was killed is still there to read.
 */
export class Shop {
  constructor(private readonly ledger: string) {}

  effect(line: string): void {
    appendFileSync(this.ledger, `${line}\n`);
  }
}

@Workflow({
  name: 'order-approval',
  input: OrderInput,
  maxSteps: 20,
  // A step `run` calls through `wf` (not a @Step method), declared for the graph.
  steps: [{ name: 'cool-off', kind: 'sleep', next: ['charge'] }],
})
export class OrderApproval {
  constructor(private readonly shop: Shop) {}

  async run(order: OrderInput, wf: WorkflowContext): Promise<Receipt> {
    // Fan-out, fan-in: both steps run at once; each output is checkpointed on its own.
    const [reservation, totalCents] = await Promise.all([this.reserve(order), this.price(order)]);
    const request = Object.assign(new ApprovalRequest(), { orderId: order.orderId, totalCents });
    await this.notify(request);
    const decision = await this.approve(request);
    if (!decision.approved)
      return { orderId: order.orderId, status: 'rejected', totalCents, approvedBy: decision.by };
    await wf.sleep('cool-off', COOL_OFF_MS);
    const payment = await this.charge(
      Object.assign(new ChargeInput(), {
        orderId: order.orderId,
        reservation: reservation.id,
        totalCents,
      }),
    );
    return {
      orderId: order.orderId,
      status: 'charged',
      totalCents,
      approvedBy: decision.by,
      payment,
    };
  }

  @Step({ output: Reservation, next: ['notify'] })
  async reserve(order: OrderInput): Promise<Reservation> {
    this.shop.effect(`reserved ${String(order.quantity)} × ${order.sku}`);
    return Promise.resolve(
      Object.assign(new Reservation(), { id: `res-${order.orderId}`, quantity: order.quantity }),
    );
  }

  @Step({ retries: 2, next: ['notify'] })
  async price(order: OrderInput): Promise<number> {
    this.shop.effect(`priced ${order.sku}`);
    return Promise.resolve(order.quantity * 1_250);
  }

  @Step({ next: ['approve'] })
  async notify(request: ApprovalRequest): Promise<string> {
    this.shop.effect(`e-mail to the manager: approve ${request.orderId}?`);
    return Promise.resolve(`mail-${request.orderId}`);
  }

  /** Suspends until `runner.resume` gives the decision; no side effects: the body runs again then. */
  @Step({ next: ['cool-off'] })
  async approve(request: ApprovalRequest, ctx?: StepContext): Promise<Decision> {
    if (ctx === undefined) throw new Error('approve runs inside a workflow only');
    return ctx.suspend({
      reason: 'manager approval',
      schema: Decision,
      payload: { orderId: request.orderId, totalCents: request.totalCents },
    });
  }

  @Step({ retries: 2, next: [] })
  async charge(input: ChargeInput): Promise<string> {
    this.shop.effect(`charged ${String(input.totalCents)} cents for ${input.reservation}`);
    return Promise.resolve(`pay-${input.orderId}`);
  }
}
