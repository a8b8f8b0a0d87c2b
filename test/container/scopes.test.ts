/**
 * Request-scoped dependencies reach tools two ways: through the run's `deps` (one singleton agent,
 * per-run values) and through a request scope (a child container per request whose agent
 * instances are built with the request's collaborators).
 */
import { Container } from 'inversify';
import { TestModel } from 'golem/testing';
import {
  createGolemContainer,
  createRequestScope,
  resolveAgent,
  runInScope,
} from 'golem/container';
import { CURRENT_USER, DepsAgent, ScopedAgent, Transaction } from './fixtures/accounts';

function toolText(result: { messages: { role: string; content?: string }[] }): string {
  return result.messages.find((m) => m.role === 'tool')?.content ?? '';
}

function appContainer(): Container {
  const container = createGolemContainer({
    env: {},
    defaultModel: new TestModel(),
    agents: [DepsAgent, ScopedAgent],
  });
  // The root has a placeholder user and builds transactions per resolution.
  container.bind(CURRENT_USER).toConstantValue({ name: 'nobody' });
  container.bind(Transaction).toSelf().inTransientScope();
  return container;
}

beforeEach(() => {
  Transaction.opened = [];
  Transaction.closed = [];
});

describe('through deps', () => {
  test("one singleton agent; each run's tools see that run's deps", async () => {
    const container = appContainer();
    const agent = resolveAgent(container, DepsAgent);
    const ada = await agent.run('who?', { deps: { name: 'Ada' } });
    const grace = await agent.run('who?', { deps: { name: 'Grace' } });
    expect(toolText(ada)).toBe('deps user Ada');
    expect(toolText(grace)).toBe('deps user Grace');
    expect(resolveAgent(container, DepsAgent)).toBe(agent);
  });
});

describe('through a request scope', () => {
  test("an agent resolved from the scope is built with the scope's values", async () => {
    const container = appContainer();
    const scope = createRequestScope(container, (s) => {
      s.bind(CURRENT_USER).toConstantValue({ name: 'Ada' });
      s.bind(Transaction).toSelf().inSingletonScope();
    });
    const result = await resolveAgent(scope, ScopedAgent).run('who?');
    const transaction = scope.get(Transaction);
    expect(toolText(result)).toBe(`scoped user Ada in transaction ${transaction.id}`);
  });

  test('each scope has its own instance; the root instance never sees a request value', () => {
    const container = appContainer();
    const root = container.get(ScopedAgent);
    const scopes = ['Ada', 'Grace'].map((name) =>
      createRequestScope(container, (s) => s.bind(CURRENT_USER).toConstantValue({ name })),
    );
    const [ada, grace] = scopes.map((scope) => scope.get(ScopedAgent));
    expect(ada?.user.name).toBe('Ada');
    expect(grace?.user.name).toBe('Grace');
    expect(ada).not.toBe(grace);
    expect(scopes[0]?.get(ScopedAgent)).toBe(ada); // one per scope
    expect(container.get(ScopedAgent)).toBe(root);
    expect(root.user.name).toBe('nobody');
  });

  test('a scope shares the models and singletons of its container', async () => {
    const model = new TestModel();
    const container = createGolemContainer({ env: {}, defaultModel: model, agents: [ScopedAgent] });
    container.bind(Transaction).toSelf().inSingletonScope();
    const scope = createRequestScope(container, (s) =>
      s.bind(CURRENT_USER).toConstantValue({ name: 'Ada' }),
    );
    await resolveAgent(scope, ScopedAgent).run('who?');
    expect(model.calls).toBe(2);
    expect(scope.get(Transaction)).toBe(container.get(Transaction));
  });

  test('runInScope runs in a fresh scope and unbinds it afterwards (closing the transaction)', async () => {
    const container = appContainer();
    const text = await runInScope(
      container,
      ScopedAgent,
      (scope) => {
        scope.bind(CURRENT_USER).toConstantValue({ name: 'Ada' });
        scope.bind(Transaction).toSelf().inSingletonScope();
      },
      async (agent) => toolText(await agent.run('who?')),
    );
    expect(text).toBe(`scoped user Ada in transaction ${Transaction.opened[0] ?? 0}`);
    expect(Transaction.closed).toEqual(Transaction.opened);
  });

  test('runInScope unbinds the scope when the run fails', async () => {
    const container = appContainer();
    await expect(
      runInScope(
        container,
        ScopedAgent,
        (scope) => {
          scope.bind(CURRENT_USER).toConstantValue({ name: 'Ada' });
          scope.bind(Transaction).toSelf().inSingletonScope();
        },
        (agent) => {
          expect(agent).toBeDefined();
          throw new Error('handler failed');
        },
      ),
    ).rejects.toThrow('handler failed');
    expect(Transaction.opened).toHaveLength(1);
    expect(Transaction.closed).toEqual(Transaction.opened);
  });
});
