/**
 * `@Handoff` in a request scope: the handoff target is resolved in the scope the handing-off
 * agent was resolved in, so it sees the request's collaborators, not the root container's.
 */
import { Agent, Handoff, Instructions } from 'golem/decorators';
import { createGolemContainer, createRequestScope, resolveAgent } from 'golem/container';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { inject } from 'inversify';

const USER = Symbol('user');

@Agent({ model: 'billing' })
class BillingAgent {
  constructor(@inject(USER) readonly user: string) {}

  @Instructions()
  who(): string {
    return `You help ${this.user}.`;
  }
}

@Agent({ model: 'triage' })
@Handoff(BillingAgent)
class TriageAgent {}

test('the target agent built for the handoff injects the request scope collaborators', async () => {
  const triage = new ScriptedModel([
    toolCallResponse([{ id: 't', name: 'transfer_to_BillingAgent' }]),
  ]);
  const billing = new ScriptedModel([textResponse('ok')]);
  const container = createGolemContainer({
    env: {},
    resolveModelStrings: false,
    models: { triage, billing },
    agents: [TriageAgent, BillingAgent],
    agentScope: 'Request',
  });
  const scope = createRequestScope(container, (s) => {
    s.bind(USER).toConstantValue('Ada');
  });
  const result = await resolveAgent(scope, TriageAgent).run('refund');
  expect(result.agent).toBe('BillingAgent');
  expect(billing.requests[0]?.messages[0]).toEqual({
    role: 'system',
    content: 'You help Ada.',
  });
});
