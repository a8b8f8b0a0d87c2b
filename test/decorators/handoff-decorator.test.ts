/**
 * `@Handoff` records handoff targets on an agent class: `handoffsOf` lists them in written order
 * (bases first) and checks each target is an `@Agent` class when used; `agentFromClass` needs
 * the resolved agents (`handoffs`), which the container and the Nest module provide.
 */
import { Agent as EngineAgent, ConfigError } from 'golem';
import { Agent, agentFromClass, boundHandoffs, Handoff, handoffsOf } from 'golem/decorators';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

@Agent()
class RefundAgent {}

@Agent()
@Handoff(RefundAgent, { name: 'refunds', description: 'Refund requests' })
@Handoff(() => LaterAgent)
class TriageAgent {}

@Agent()
class LaterAgent {}

test('handoffsOf lists the targets in written order, resolving function targets when used', () => {
  const declarations = handoffsOf(TriageAgent);
  expect(declarations.map((d) => [d.target(), d.options, d.declaredBy])).toEqual([
    [RefundAgent, { name: 'refunds', description: 'Refund requests' }, 'TriageAgent'],
    [LaterAgent, {}, 'TriageAgent'],
  ]);
  expect(handoffsOf(RefundAgent)).toEqual([]);
});

test('a subclass adds its handoffs after its base class', () => {
  @Agent()
  @Handoff(RefundAgent, { name: 'more_refunds' })
  class Derived extends TriageAgent {}
  expect(handoffsOf(Derived).map((d) => d.options.name)).toEqual([
    'refunds',
    undefined,
    'more_refunds',
  ]);
});

test('a target that is not an @Agent class is refused naming the declaring class', () => {
  class Plain {}
  @Agent()
  @Handoff(Plain)
  class Direct {}
  expect(() => handoffsOf(Direct)).toThrow(
    /^Direct: @Handoff target is the class or function Plain, not an @Agent class/,
  );

  @Agent()
  @Handoff(() => undefined as never)
  class Lazy {}
  const [declaration] = handoffsOf(Lazy);
  expect(() => declaration?.target()).toThrow(
    /@Handoff target is undefined, not an @Agent class; .*circular import/,
  );
});

test('agentFromClass refuses @Handoff without resolved handoffs, naming the fix', () => {
  let error: unknown;
  try {
    agentFromClass(new TriageAgent(), { model: new TestModel() });
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.is(error, 'decorators')).toBe(true);
  expect((error as Error).message).toMatch(
    /^TriageAgent: @Handoff names agent classes, which agentFromClass cannot resolve; bind the agents with golemModule/,
  );
});

test('boundHandoffs resolves the targets through the given resolver into engine handoffs', async () => {
  const refunds = new ScriptedModel([textResponse('refunded')]);
  const agents = new Map<unknown, EngineAgent>([
    [RefundAgent, agentFromClass(new RefundAgent(), { model: refunds })],
    [LaterAgent, agentFromClass(new LaterAgent(), { model: new TestModel() })],
  ]);
  const triageModel = new ScriptedModel([
    toolCallResponse([{ id: 'c', name: 'transfer_to_refunds' }]),
  ]);
  const triage = agentFromClass(new TriageAgent(), {
    model: triageModel,
    handoffs: boundHandoffs(TriageAgent, (target) => agents.get(target)),
  });
  const result = await triage.run('refund please');
  expect(triageModel.requests[0]?.tools.map((t) => t.name)).toEqual([
    'transfer_to_refunds',
    'transfer_to_LaterAgent',
  ]);
  expect(result).toMatchObject({ output: 'refunded', agent: 'RefundAgent' });
});
