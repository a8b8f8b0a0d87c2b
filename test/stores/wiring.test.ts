/**
 * A store configured once: decorated agents (`agentFromClass`), the Inversify container
 * (`golemModule({ store })`, the `RUN_STORE` binding) and a binding's own store.
 */
import { IsString } from 'class-validator';
import { Container, ContainerModule } from 'inversify';
import { listRuns, loadRun } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { Agent, Tool, agentFromClass, compileAgentClass } from 'golem/decorators';
import { bindAgent, golemModule, resolveAgent, RUN_STORE } from 'golem/container';
import { memoryStore } from 'golem/stores/memory';

class NoteArgs {
  @IsString() text!: string;
}

@Agent({ model: 'default' })
class NoteAgent {
  readonly notes: string[] = [];

  @Tool({ description: 'Keep a note', idempotent: true })
  note(args: NoteArgs): string {
    this.notes.push(args.text);
    return 'noted';
  }
}

const script = () =>
  new ScriptedModel([
    toolCallResponse([{ id: 'n1', name: 'note', args: { text: 'milk' } }]),
    textResponse('ok'),
  ]);

test('agentFromClass takes a store; the class name is the stored agent name; @Tool idempotent reaches the tool', async () => {
  const store = memoryStore();
  const agent = agentFromClass(new NoteAgent(), { model: script(), store });
  const result = await agent.run('remember milk');
  expect(await loadRun(store, result.runId ?? '')).toMatchObject({
    agent: 'NoteAgent',
    status: 'completed',
  });
  expect(agent.store).toBe(store);
  expect(compileAgentClass(NoteAgent).tools.map((t) => [t.name, t.idempotent])).toEqual([
    ['note', true],
  ]);
});

test('golemModule({ store }) binds RUN_STORE and every container agent checkpoints there', async () => {
  const store = memoryStore();
  const container = new Container();
  container.load(golemModule({ models: { default: script() }, agents: [NoteAgent], store }));
  expect(container.get(RUN_STORE)).toBe(store);
  const agent = resolveAgent(container, NoteAgent);
  const result = await agent.run('remember milk', { conversation: 'shopping' });
  expect(
    (await listRuns(store, { conversationId: 'shopping' })).map((r) => [r.id, r.agent]),
  ).toEqual([[result.runId, 'NoteAgent']]);
});

test("a binding's own store wins over the container's; without any, runs are not stored", async () => {
  const shared = memoryStore();
  const own = memoryStore();
  const container = new Container();
  container.load(
    golemModule({ models: { default: script() }, store: shared }),
    new ContainerModule((options) => {
      bindAgent(options, NoteAgent, { store: own });
    }),
  );
  const result = await resolveAgent(container, NoteAgent).run('remember milk');
  expect((await loadRun(own, result.runId ?? '')).status).toBe('completed');
  expect(await listRuns(shared)).toEqual([]);
  const bare = new Container();
  bare.load(golemModule({ models: { default: script() }, agents: [NoteAgent] }));
  expect((await resolveAgent(bare, NoteAgent).run('remember milk')).runId).toBeUndefined();
});

test('golemModule refuses a store that is not an object', () => {
  expect(() => golemModule({ store: 'runs.db' as never })).toThrow(
    'golemModule: store must be a run store, e.g. sqliteStore({ path }) from golem/stores/sqlite',
  );
});
