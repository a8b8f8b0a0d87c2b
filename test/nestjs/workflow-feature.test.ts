/**
 * Workflows in a real Nest app: `GolemModule.forFeature([ApprovalWorkflow])` has Nest build the
 * workflow class in the feature module's context (its constructor gets the module's private
 * provider), `@InjectWorkflow` injects the typed definition, and the injectable
 * `GolemWorkflowRunner` runs every registered workflow over the root module's store — over HTTP.
 */
import {
  Body,
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  Post,
  type INestApplication,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, IsString, Min } from 'class-validator';
import { ConfigError, type StandardSchemaV1 } from 'golem';
import { Agent, NoArgs, Step, Workflow, type WorkflowOf } from 'golem/decorators';
import {
  getAgentToken,
  getWorkflowToken,
  GolemModule,
  GolemWorkflowRunner,
  InjectWorkflow,
} from 'golem/nestjs';
import { memoryStore } from 'golem/stores/memory';
import type { StepContext, WorkflowContext, WorkflowEvent } from 'golem/workflows';

class PurchaseInput {
  @IsString() item!: string;
  @IsInt() @Min(1) amount!: number;
}

/** The feature module's private provider (not exported). */
@Injectable()
class Ledger {
  readonly entries: string[] = [];
  record(entry: string): string {
    this.entries.push(entry);
    return entry;
  }
}

const decision: StandardSchemaV1<unknown, { ok: boolean }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value: unknown) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { ok?: unknown }).ok === 'boolean'
        ? { value: value as { ok: boolean } }
        : { issues: [{ message: 'expected { ok: boolean }' }] },
  },
};

@Workflow({ name: 'purchase', input: PurchaseInput })
class ApprovalWorkflow {
  constructor(readonly ledger: Ledger) {}

  async run(input: PurchaseInput, _wf: WorkflowContext): Promise<string> {
    const approved = await this.approve(input);
    if (!approved.ok) return 'rejected';
    return this.book(input);
  }

  @Step()
  async approve(input: PurchaseInput, ctx?: StepContext): Promise<{ ok: boolean }> {
    if (ctx === undefined) throw new Error('approve runs inside a workflow');
    return ctx.suspend({ reason: `approve ${input.item}`, schema: decision });
  }

  @Step()
  async book(input: PurchaseInput): Promise<string> {
    return Promise.resolve(this.ledger.record(`${input.item}:${input.amount}`));
  }
}

@Workflow({ name: 'audit', input: NoArgs })
class AuditWorkflow {
  async run(): Promise<string> {
    return this.check();
  }
  @Step() async check(): Promise<string> {
    return Promise.resolve('clean');
  }
}

@Controller('purchases')
class PurchasesController {
  constructor(
    private readonly workflows: GolemWorkflowRunner,
    @InjectWorkflow(ApprovalWorkflow)
    private readonly purchase: WorkflowOf<typeof ApprovalWorkflow>,
  ) {}

  @Post()
  async start(@Body() body: PurchaseInput): Promise<{ runId: string; status: string }> {
    const result = await this.workflows.start(this.purchase, body);
    return { runId: result.runId, status: result.status };
  }

  @Post(':runId/decision')
  async decide(@Param('runId') runId: string, @Body() body: unknown): Promise<unknown> {
    return this.workflows.resume(runId, body);
  }

  @Get(':runId')
  async show(@Param('runId') runId: string): Promise<{ status: string }> {
    return { status: (await this.workflows.get(runId)).status };
  }
}

@Module({
  imports: [GolemModule.forFeature([ApprovalWorkflow])],
  providers: [Ledger],
  controllers: [PurchasesController],
})
class PurchasesModule {}

@Module({ imports: [GolemModule.forFeature([AuditWorkflow])] })
class AuditModule {}

let app: INestApplication;
let base: string;
const store = memoryStore();
const events: WorkflowEvent[] = [];

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({ store, workflowRunner: { onEvent: (e) => events.push(e) } }),
      PurchasesModule,
      AuditModule,
    ],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}/purchases${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

test('a workflow started over HTTP suspends for approval, and the decision completes it with the module provider', async () => {
  const started = await post('', { item: 'laptop', amount: 2 });
  expect(started.status).toBe(201);
  const { runId, status } = (await started.json()) as { runId: string; status: string };
  expect(status).toBe('suspended');
  expect(await (await fetch(`${base}/purchases/${runId}`)).json()).toEqual({ status: 'suspended' });

  const decided = await post(`/${runId}/decision`, { ok: true });
  expect(await decided.json()).toEqual({ runId, status: 'completed', output: 'laptop:2' });
  expect(app.get(Ledger, { strict: false }).entries).toEqual(['laptop:2']);
  expect(events.filter((e) => e.runId === runId).map((e) => e.kind)).toContain(
    'workflow_completed',
  );
});

test('the workflow instance is built by Nest in the feature module context, once', () => {
  const definition = app.get(getWorkflowToken(ApprovalWorkflow), { strict: false });
  expect(definition.name).toBe('purchase');
  expect(app.get(getWorkflowToken(ApprovalWorkflow), { strict: false })).toBe(definition);
});

test("one runner runs the workflows of every feature module over the root module's store", async () => {
  const runner = app.get(GolemWorkflowRunner);
  await expect(runner.start('audit', {}, { runId: 'audit-1' })).resolves.toEqual({
    runId: 'audit-1',
    status: 'completed',
    output: 'clean',
  });
  expect((await store.getWorkflowRun('audit-1'))?.workflow).toBe('audit');
});

test('one forFeature call registers agents and workflows side by side', async () => {
  @Agent()
  class EchoAgent {}
  @Module({ imports: [GolemModule.forFeature([EchoAgent, AuditWorkflow])] })
  class MixedModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test', store: memoryStore() }), MixedModule],
  }).compile();
  await moduleRef.init();
  expect(moduleRef.get(getAgentToken(EchoAgent), { strict: false }).name).toBe('EchoAgent');
  expect(moduleRef.get(getWorkflowToken(AuditWorkflow), { strict: false }).name).toBe('audit');
  await expect(moduleRef.get(GolemWorkflowRunner).start('audit', {})).resolves.toMatchObject({
    output: 'clean',
  });
  await moduleRef.close();
});

test('without a workflow store, using the runner is a missing-store ConfigError naming the fix', async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({}), AuditModule],
  }).compile();
  await moduleRef.init();
  let error: unknown;
  try {
    await moduleRef.get(GolemWorkflowRunner).start('audit', {});
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.is(error, 'nestjs', 'missing-store')).toBe(true);
  expect((error as Error).message).toMatch(/GolemModule\.forRoot\(\{ store: sqliteStore/);
  await moduleRef.close();
});
