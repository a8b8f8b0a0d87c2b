/**
 * `@Handoff` in the container: the target agent class is resolved among the container's agents
 * (with its own injected collaborators and model) when the run first hands off, so two agents may
 * hand off to each other; a target that is not bound is refused naming both classes.
 */
import { ConfigError } from 'golem';
import { Agent, Handoff, Instructions, NoArgs, Tool } from 'golem/decorators';
import { createGolemContainer, resolveAgent } from 'golem/container';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { ContainerModule, injectable } from 'inversify';

@injectable()
class Refunds {
  readonly issued: string[] = [];
}

@Agent({ model: 'triage' })
@Instructions('You route.')
@Handoff(() => BillingAgent, { description: 'Invoices and refunds' })
class TriageAgent {}

@Agent({ model: 'billing' })
@Instructions('You handle billing.')
@Handoff(TriageAgent, { name: 'back_to_triage' })
class BillingAgent {
  constructor(readonly refunds: Refunds) {}

  @Tool({ description: 'Issues a refund' })
  refund(_args: NoArgs): string {
    this.refunds.issued.push('r');
    return 'refunded';
  }
}

function container(
  triage: ScriptedModel,
  billing: ScriptedModel,
  agents = [TriageAgent, BillingAgent],
) {
  return createGolemContainer({
    env: {},
    resolveModelStrings: false,
    models: { triage, billing },
    agents,
    modules: [new ContainerModule(({ bind }) => void bind(Refunds).toSelf().inSingletonScope())],
  });
}

test('the model hands off to the target class, which runs with its injected collaborators', async () => {
  const triage = new ScriptedModel([
    toolCallResponse([{ id: 't1', name: 'transfer_to_BillingAgent' }]),
  ]);
  const billing = new ScriptedModel([
    toolCallResponse([{ id: 'r1', name: 'refund' }]),
    textResponse('Refund issued.'),
  ]);
  const built = container(triage, billing);
  const result = await resolveAgent(built, TriageAgent).run('I want a refund');
  expect(triage.requests[0]?.tools.map((t) => [t.name, t.description])).toEqual([
    ['transfer_to_BillingAgent', 'Invoices and refunds'],
  ]);
  expect(billing.requests[0]?.tools.map((t) => t.name)).toEqual([
    'refund',
    'transfer_to_back_to_triage',
  ]);
  expect(result).toMatchObject({ output: 'Refund issued.', agent: 'BillingAgent' });
  expect(result.handoffs).toEqual([{ from: 'TriageAgent', to: 'BillingAgent', callId: 't1' }]);
  expect(built.get(Refunds).issued).toEqual(['r']);
});

test('agents handing off to each other resolve lazily: the cycle is allowed', async () => {
  const triage = new ScriptedModel([
    toolCallResponse([{ id: 't1', name: 'transfer_to_BillingAgent' }]),
    textResponse('Routed again.'),
  ]);
  const billing = new ScriptedModel([
    toolCallResponse([{ id: 'b1', name: 'transfer_to_back_to_triage' }]),
  ]);
  const result = await resolveAgent(container(triage, billing), TriageAgent).run('hello');
  expect(result.output).toBe('Routed again.');
  expect((result.handoffs ?? []).map((h) => h.to)).toEqual(['BillingAgent', 'TriageAgent']);
});

test('a handoff target that is not bound is refused when the agent is resolved, naming both classes', () => {
  const built = container(new ScriptedModel([]), new ScriptedModel([]), [TriageAgent]);
  let error: unknown;
  try {
    resolveAgent(built, TriageAgent);
  } catch (caught) {
    error = caught;
  }
  expect(ConfigError.is(error, 'container', 'unbound-agent')).toBe(true);
  expect((error as Error).message).toMatch(
    /^TriageAgent hands off to BillingAgent, which is not bound in this container; add it to golemModule\(\{ agents: \[TriageAgent, BillingAgent\] \}\)/,
  );
});
