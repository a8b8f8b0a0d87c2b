/**
 * Per-request data over real HTTP: through the run's deps (singleton agent, the default), and
 * through REQUEST-scoped providers with an agent registered as `scope: 'request'`.
 */
import {
  Controller,
  Get,
  Headers,
  Inject,
  Injectable,
  Module,
  Scope,
  type INestApplication,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, NoArgs, Tool } from 'golem/decorators';
import { GolemTestingModule, GolemModule, InjectAgent, type InjectedAgent } from 'golem/nestjs';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

interface Caller {
  name: string;
}

/** Answers with the system instructions, so each answer shows the deps the run had. */
const echoInstructions = () =>
  new FunctionModel((request) => textResponse(request.messages[0]?.content ?? ''));

@Agent()
class GreeterAgent {
  declare readonly [DEPS_TYPE]: Caller;
  @Instructions()
  caller(ctx: RunContext<Caller>): string {
    return `caller=${ctx.deps.name}`;
  }
}

@Controller('greet')
class GreetController {
  constructor(
    @InjectAgent(GreeterAgent) private readonly agent: InjectedAgent<typeof GreeterAgent>,
  ) {}
  @Get()
  async greet(@Headers('x-user') user: string): Promise<string> {
    return (await this.agent.run('hi', { deps: { name: user } })).output;
  }
}

@Module({ imports: [GolemModule.forFeature([GreeterAgent])], controllers: [GreetController] })
class GreetModule {}

let created = 0;

/** One per request: reads the request's header. */
@Injectable({ scope: Scope.REQUEST })
class Transaction {
  readonly id: string;
  constructor(@Inject(REQUEST) request: { headers: Record<string, string | undefined> }) {
    this.id = request.headers['x-tx'] ?? 'none';
  }
}

@Agent({ model: 'ledger' })
class LedgerAgent {
  constructor(readonly tx: Transaction) {
    created++;
  }
  @Tool({ description: 'The current transaction' })
  transaction(_args: NoArgs): string {
    return this.tx.id;
  }
}

@Controller('ledger')
class LedgerController {
  constructor(
    @InjectAgent(LedgerAgent) private readonly agent: InjectedAgent<typeof LedgerAgent>,
    private readonly tx: Transaction,
  ) {}
  @Get()
  async run(): Promise<{ tool: string | undefined; controller: string }> {
    const result = await this.agent.run('which transaction?');
    return {
      tool: result.messages.find((m) => m.role === 'tool')?.content,
      controller: this.tx.id,
    };
  }
}

@Module({
  imports: [GolemModule.forFeature([{ agent: LedgerAgent, scope: 'request' }])],
  providers: [Transaction],
  controllers: [LedgerController],
})
class LedgerModule {}

let app: INestApplication;
let base: string;

beforeAll(async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({
        defaultModel: echoInstructions(),
        models: {
          ledger: new FunctionModel((request) =>
            request.messages.some((m) => m.role === 'tool')
              ? textResponse('done')
              : toolCallResponse([{ id: 'c1', name: 'transaction' }]),
          ),
        },
      }),
      GreetModule,
      LedgerModule,
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

test('concurrent requests each reach the singleton agent with their own deps', async () => {
  const users = Array.from({ length: 20 }, (_, i) => `user-${i}`);
  const answers = await Promise.all(
    users.map(async (user) =>
      (await fetch(`${base}/greet`, { headers: { 'x-user': user } })).text(),
    ),
  );
  expect(answers).toEqual(users.map((user) => `caller=${user}`));
});

test("an agent registered with scope 'request' is built per request with that request's providers", async () => {
  const before = created;
  const answers = await Promise.all(
    ['tx-1', 'tx-2', 'tx-3'].map(
      async (tx) =>
        (await fetch(`${base}/ledger`, { headers: { 'x-tx': tx } })).json() as Promise<unknown>,
    ),
  );
  expect(answers).toEqual([
    { tool: 'tx-1', controller: 'tx-1' },
    { tool: 'tx-2', controller: 'tx-2' },
    { tool: 'tx-3', controller: 'tx-3' },
  ]);
  expect(created - before).toBe(3);
});
