/**
 * GolemExceptionFilter over real HTTP: a failed run is a 502 carrying the stage, invalid run input
 * a 400, anything else Nest's own answer.
 */
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ModelHTTPError } from 'golem';
import { Agent } from 'golem/decorators';
import {
  GolemExceptionFilter,
  GolemModule,
  GolemTestingModule,
  InjectAgent,
  type InjectedAgent,
} from 'golem/nestjs';
import { ScriptedModel } from 'golem/testing';

@Agent()
class PlainAgent {}

@Controller()
class RunsController {
  constructor(@InjectAgent(PlainAgent) private readonly agent: InjectedAgent<typeof PlainAgent>) {}

  @Get('fails')
  async fails(): Promise<string> {
    return (await this.agent.run('hi')).output;
  }

  @Get('bad-input')
  async badInput(): Promise<string> {
    // A negative deadline: invalid run input, refused before any model call.
    return (await this.agent.run('hi', { timeout: -5 })).output;
  }

  @Get('other')
  other(): string {
    throw new Error('not a run');
  }
}

@Module({
  imports: [GolemModule.forFeature([PlainAgent])],
  controllers: [RunsController],
  providers: [{ provide: APP_FILTER, useClass: GolemExceptionFilter }],
})
class RunsModule {}

let app: INestApplication;
let base: string;

beforeAll(async () => {
  const model = new ScriptedModel([
    new ModelHTTPError({ status: 500, provider: 'acme', message: 'boom' }),
  ]);
  const moduleRef = await Test.createTestingModule({
    imports: [GolemTestingModule.forRoot({ defaultModel: model }), RunsModule],
  }).compile();
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  base = await app.getUrl();
});

afterAll(async () => {
  await app.close();
});

test('a failed run answers 502 with the stage, not the error text', async () => {
  const response = await fetch(`${base}/fails`);
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual({
    statusCode: 502,
    error: 'Bad Gateway',
    stage: 'model',
    message: 'The run failed at the "model" stage (ModelHTTPError).',
  });
});

test('invalid run input answers 400', async () => {
  const response = await fetch(`${base}/bad-input`);
  expect(response.status).toBe(400);
  const body = (await response.json()) as { statusCode: number; error: string; message: string };
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect(body.message).toMatch(/^timeout /);
});

test("any other error gets Nest's own answer", async () => {
  const response = await fetch(`${base}/other`);
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ statusCode: 500, message: 'Internal server error' });
});
