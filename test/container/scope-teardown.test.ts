/**
 * A request scope whose teardown fails (a `@preDestroy` that throws) never replaces the run's own
 * error: that error rejects unchanged with the teardown failure attached as `suppressed` and
 * reported; a run that completed rejects with a `ScopeTeardownError` carrying its result. Every
 * service's hook runs even when an earlier one throws.
 */
import { Container, injectable, preDestroy } from 'inversify';
import { RunError, ConfigError } from 'golem';
import { Agent, Tool } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import {
  ScopeTeardownError,
  createGolemContainer,
  runInScope,
  type ScopeSetup,
} from 'golem/container';
import { HOSTILE_KINDS } from '../support/hostile-values';

/** Closed in order by every hook that ran. */
let closed: string[] = [];

@injectable()
class FailingAudit {
  static failure: unknown = new Error('audit log unreachable');
  @preDestroy()
  close(): void {
    closed.push('audit');
    throw FailingAudit.failure;
  }
}

@injectable()
class FailingCache {
  @preDestroy()
  async close(): Promise<void> {
    await Promise.resolve();
    closed.push('cache');
    throw new Error('cache flush failed');
  }
}

@injectable()
class Transaction {
  @preDestroy()
  close(): void {
    closed.push('transaction');
  }
}

@Agent()
class LedgerAgent {
  constructor(
    readonly audit: FailingAudit,
    readonly transaction: Transaction,
  ) {}

  @Tool({ description: 'Books the entry' })
  book(): string {
    return `booked in ${this.transaction.constructor.name}`;
  }
}

function appContainer(model = new ScriptedModel([textResponse('done')])): Container {
  return createGolemContainer({ env: {}, defaultModel: model, agents: [LedgerAgent] });
}

const withFailingAudit: ScopeSetup = (scope) => {
  scope.bind(FailingAudit).toSelf().inSingletonScope();
  scope.bind(Transaction).toSelf().inSingletonScope();
};

/** The rejection of `promise` (boxed: a hostile value must not be adopted as a thenable). */
async function rejection(promise: Promise<unknown>): Promise<{ error: unknown }> {
  return promise.then(
    () => {
      throw new Error('expected runInScope to reject');
    },
    (error: unknown) => ({ error }),
  );
}

/** A scope whose audit service tears down cleanly. */
const quietSetup: ScopeSetup = (scope) => {
  scope.bind(FailingAudit).toConstantValue(Object.create(FailingAudit.prototype) as FailingAudit);
  scope.bind(Transaction).toSelf().inSingletonScope();
};

beforeEach(() => {
  closed = [];
  FailingAudit.failure = new Error('audit log unreachable');
});

describe('the run failed and the teardown failed', () => {
  test("the run's own RunError rejects, with the teardown failure attached and reported", async () => {
    const model = new ScriptedModel([new Error('provider down')]);
    const reported: ScopeTeardownError[] = [];
    const { error } = await rejection(
      runInScope(appContainer(model), LedgerAgent, withFailingAudit, (agent) => agent.run('go'), {
        onTeardownError: (e) => reported.push(e),
      }),
    );
    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('model');
    const suppressed = (error as { suppressed?: unknown }).suppressed;
    expect(ScopeTeardownError.is(suppressed)).toBe(true);
    expect(reported).toEqual([suppressed]);
    const teardown = suppressed as ScopeTeardownError;
    expect(teardown.reason).toBe('teardown-failed');
    expect(teardown.completed).toBe(false);
    expect(teardown.failures).toEqual([FailingAudit.failure]);
    expect(teardown.cause).toBe(FailingAudit.failure);
    expect(teardown.message).toContain('LedgerAgent: request scope teardown failed');
    expect(Object.keys(error as object)).not.toContain('suppressed');
  });

  test('a frozen or primitive run error is rethrown as is; the failure is still reported', async () => {
    for (const thrown of [
      Object.freeze(new Error('frozen')),
      'plain string',
      ...HOSTILE_KINDS.map((k) => k.make()),
    ]) {
      closed = [];
      const reported: ScopeTeardownError[] = [];
      const { error } = await rejection(
        runInScope(
          appContainer(),
          LedgerAgent,
          withFailingAudit,
          (agent) => {
            expect(agent).toBeDefined();
            throw thrown;
          },
          { onTeardownError: (e) => reported.push(e) },
        ),
      );
      expect(error === thrown).toBe(true);
      expect(reported).toHaveLength(1);
      expect(closed).toEqual(['audit', 'transaction']);
    }
  });

  test('a failing teardown hook does not stop the other services from being torn down', async () => {
    const setup: ScopeSetup = (scope) => {
      scope.bind(FailingAudit).toSelf().inSingletonScope();
      scope.bind(FailingCache).toSelf().inSingletonScope();
      scope.bind(Transaction).toSelf().inSingletonScope();
    };
    const { error } = await rejection(
      runInScope(appContainer(), LedgerAgent, setup, (_agent, scope) => {
        scope.get(FailingCache);
        throw new Error('handler failed');
      }),
    );
    expect((error as Error).message).toBe('handler failed');
    expect(closed).toEqual(['audit', 'cache', 'transaction']);
    const teardown = (error as { suppressed?: ScopeTeardownError }).suppressed;
    expect(teardown?.failures).toHaveLength(2);
    expect(teardown?.cause).toBeInstanceOf(AggregateError);
  });
});

describe('the run completed and the teardown failed', () => {
  test('rejects with a ScopeTeardownError carrying the result', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'book', args: {} }]),
      textResponse('booked'),
    ]);
    const reported: ScopeTeardownError[] = [];
    const { error } = await rejection(
      runInScope(appContainer(model), LedgerAgent, withFailingAudit, (agent) => agent.run('go'), {
        onTeardownError: (e) => reported.push(e),
      }),
    );
    expect(ScopeTeardownError.is(error)).toBe(true);
    expect(ConfigError.is(error)).toBe(false);
    const teardown = error as ScopeTeardownError;
    expect([teardown.kind, teardown.reason]).toEqual(['ScopeTeardownError', 'teardown-failed']);
    expect(reported).toEqual([teardown]);
    expect(teardown.completed).toBe(true);
    expect((teardown.result as { output: string }).output).toBe('booked');
    expect(teardown.cause).toBe(FailingAudit.failure);
    expect(closed).toEqual(['audit', 'transaction']);
  });

  test('a hostile teardown failure and a throwing reporter still give a typed rejection', async () => {
    for (const kind of HOSTILE_KINDS) {
      FailingAudit.failure = kind.make();
      const { error } = await rejection(
        runInScope(appContainer(), LedgerAgent, withFailingAudit, () => 'ok', {
          onTeardownError: () => {
            throw new Error('logger down');
          },
        }),
      );
      expect(ScopeTeardownError.is(error)).toBe(true);
      expect((error as ScopeTeardownError).failures[0] === FailingAudit.failure).toBe(true);
      expect((error as ScopeTeardownError).result).toBe('ok');
    }
  });
});

test('a clean teardown changes nothing: the result, or the run error without `suppressed`', async () => {
  const setup = quietSetup;
  const container = appContainer(new ScriptedModel([textResponse('done'), new Error('down')]));
  const result = await runInScope(container, LedgerAgent, setup, (agent) => agent.run('go'));
  expect(result.output).toBe('done');
  const { error } = await rejection(
    runInScope(container, LedgerAgent, setup, (agent) => agent.run('go')),
  );
  expect(RunError.is(error)).toBe(true);
  expect('suppressed' in (error as object)).toBe(false);
  expect(closed).toEqual(['transaction', 'transaction']);
});

test('a service the run unbound itself is not looked up in the parent at teardown', async () => {
  const container = appContainer();
  container.bind(Transaction).toSelf().inSingletonScope();
  const shared = container.get(Transaction);
  await runInScope(container, LedgerAgent, quietSetup, async (_agent, scope) => {
    expect(scope.get(Transaction)).not.toBe(shared);
    await scope.unbindAsync(Transaction);
  });
  expect(closed).toEqual(['transaction']); // the scope's own, once; the parent's stays open
  expect(container.get(Transaction)).toBe(shared);
});
