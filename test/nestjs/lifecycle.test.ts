/**
 * Lifecycle: closables given to forRoot or registered with GolemLifecycle (a real MCP client over
 * stdio here) are closed on application shutdown, once, in reverse order, even when one fails;
 * the agent class's own Nest hooks are called.
 */
import { Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent } from 'golem/decorators';
import { connectMcp, type McpClient } from 'golem/mcp';
import {
  GolemLifecycle,
  GolemModule,
  GolemTestingModule,
  getAgentToken,
  getModelToken,
} from 'golem/nestjs';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { isRunning, stdioServer } from '../src/mcp/support';
import { ConfigError } from 'golem';
import { ShutdownError } from '../support/internal-errors';

const MCP = Symbol('McpClient');

@Module({
  providers: [
    {
      provide: MCP,
      inject: [GolemLifecycle],
      useFactory: async (lifecycle: GolemLifecycle) =>
        lifecycle.register(
          await connectMcp({ name: 'local', transport: stdioServer('stdio-server.js') }),
        ),
    },
  ],
  exports: [MCP],
})
class McpModule {}

@Agent()
class ToolsAgent {}

@Module({
  imports: [
    McpModule,
    GolemModule.forFeature([
      {
        agent: ToolsAgent,
        tools: { inject: [MCP], useFactory: (client: McpClient) => client.tools() },
      },
    ]),
  ],
})
class ToolsModule {}

test("an MCP client registered with GolemLifecycle serves the agent's tools and is closed on shutdown", async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'echo', args: { text: 'from MCP' } }]),
    textResponse('done'),
  ]);
  const moduleRef = await Test.createTestingModule({
    imports: [GolemTestingModule.forRoot(), ToolsModule],
  })
    .overrideProvider(getModelToken('default'))
    .useValue(model)
    .compile();
  const result = await moduleRef.get(getAgentToken(ToolsAgent), { strict: false }).run('echo it');
  expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('from MCP');
  const client = moduleRef.get<McpClient>(MCP, { strict: false });
  const pid = client.pid as number;
  expect(isRunning(pid)).toBe(true);
  await moduleRef.close();
  expect(client.closed).toBe(true);
  expect(isRunning(pid)).toBe(false);
});

test('closables are closed once, in reverse order, and every one even when one fails', async () => {
  const closed: string[] = [];
  const closable = (name: string, fail = false) => ({
    close: () => {
      closed.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  });
  const logged: unknown[] = [];
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({
        closables: [closable('pool'), closable('cache', true), closable('queue')],
      }),
    ],
  })
    .setLogger({
      log: () => undefined,
      warn: () => undefined,
      error: (...args: unknown[]) => logged.push(...args),
    })
    .compile();
  const lifecycle = moduleRef.get(GolemLifecycle);
  lifecycle.register(closable('late'));
  expect(lifecycle.size).toBe(4);
  // Nest 12 logs a failing shutdown hook; Nest 10 and 11 reject app.close() with it.
  const rejected: unknown = await moduleRef.close().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(closed).toEqual(['late', 'queue', 'cache', 'pool']);
  const error = rejected ?? logged.find((entry) => ShutdownError.is(entry));
  expect(ConfigError.is(error)).toBe(false);
  expect(ShutdownError.is(error) && [error.kind, error.reason, error.message]).toEqual([
    'ShutdownError',
    'shutdown-failed',
    'GolemModule: closing a closable on application shutdown failed (first: cache failed); the others were closed',
  ]);
  await lifecycle.onApplicationShutdown().catch(() => undefined);
  expect(closed).toHaveLength(4);
  expect(() => lifecycle.register(closable('too late'))).toThrow(
    'the application is shutting down',
  );
});

test("the agent class's own lifecycle hooks are called by Nest", async () => {
  const calls: string[] = [];
  @Agent()
  class HookedAgent implements OnModuleInit, OnApplicationShutdown {
    onModuleInit(): void {
      calls.push('init');
    }
    onApplicationShutdown(signal?: string): void {
      calls.push(`shutdown ${signal ?? '-'}`);
    }
  }
  @Module({ imports: [GolemModule.forFeature([HookedAgent])] })
  class HookedModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [GolemTestingModule.forRoot(), HookedModule],
  }).compile();
  await moduleRef.init();
  expect(calls).toEqual(['init']);
  await moduleRef.close();
  expect(calls).toEqual(['init', 'shutdown -']);
});
