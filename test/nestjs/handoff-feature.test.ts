/**
 * `@Handoff` in a real Nest app: agents registered by one `GolemModule.forFeature` call hand off
 * to each other (targets looked up in the module when the run first hands off, so cycles are
 * allowed), each built by Nest with its own providers; a target the call does not register fails
 * the app at startup, naming both classes and the fix.
 */
import { Controller, Injectable, Module, Post, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ConfigError } from 'golem';
import { Agent, Handoff, Instructions, NoArgs, Tool } from 'golem/decorators';
import { GolemModule, InjectAgent, type InjectedAgent } from 'golem/nestjs';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

@Injectable()
class Refunds {
  readonly issued: string[] = [];
}

@Agent({ model: 'triage' })
@Instructions('You route.')
@Handoff(() => BillingAgent)
class TriageAgent {}

@Agent({ model: 'billing' })
@Instructions('You handle billing.')
@Handoff(TriageAgent, { name: 'triage' })
class BillingAgent {
  constructor(readonly refunds: Refunds) {}

  @Tool({ description: 'Issues a refund' })
  refund(_args: NoArgs): string {
    this.refunds.issued.push('r');
    return 'refunded';
  }
}

@Controller('support')
class SupportController {
  constructor(
    @InjectAgent(TriageAgent) private readonly triage: InjectedAgent<typeof TriageAgent>,
  ) {}

  @Post()
  async ask(): Promise<{ output: string; agent: string; path: string[] }> {
    const result = await this.triage.run('I want a refund');
    return {
      output: result.output,
      agent: result.agent,
      path: (result.handoffs ?? []).map((h) => h.to),
    };
  }
}

@Module({
  imports: [GolemModule.forFeature([TriageAgent, BillingAgent])],
  providers: [Refunds],
  controllers: [SupportController],
})
class SupportModule {}

let app: INestApplication;
let base: string;
const triage = new ScriptedModel([
  toolCallResponse([{ id: 't1', name: 'transfer_to_BillingAgent' }]),
  textResponse('Anything else?'),
]);
const billing = new ScriptedModel([
  toolCallResponse([{ id: 'r1', name: 'refund' }]),
  toolCallResponse([{ id: 'b1', name: 'transfer_to_triage' }]),
]);

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ models: { triage, billing } }), SupportModule],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

test('a run hands off to the registered target and back: agents built by Nest, cycle allowed', async () => {
  const response = await fetch(`${base}/support`, { method: 'POST' });
  expect(response.status).toBe(201);
  expect(await response.json()).toEqual({
    output: 'Anything else?',
    agent: 'TriageAgent',
    path: ['BillingAgent', 'TriageAgent'],
  });
  expect(app.get(Refunds, { strict: false }).issued).toEqual(['r']);
  expect(billing.requests[0]?.tools.map((t) => t.name)).toEqual(['refund', 'transfer_to_triage']);
});

test('a handoff target the forFeature call does not register fails the app at startup', async () => {
  @Module({ imports: [GolemModule.forFeature([TriageAgent])] })
  class LonelyModule {}
  let error: unknown;
  try {
    const moduleRef = await Test.createTestingModule({
      imports: [GolemModule.forRoot({ models: { triage, billing } }), LonelyModule],
    }).compile();
    await moduleRef.close();
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.is(error, 'nestjs', 'unregistered-agent')).toBe(true);
  expect((error as Error).message).toMatch(
    /^TriageAgent \(registered with GolemModule\.forFeature in LonelyModule\) hands off to BillingAgent, which that forFeature call does not register; list both: GolemModule\.forFeature\(\[TriageAgent, BillingAgent\]\)/,
  );
});
