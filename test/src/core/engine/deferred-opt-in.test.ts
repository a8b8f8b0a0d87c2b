import {
  Agent,
  ConfigError,
  ToolError,
  defineTool,
  findError,
  requireApproval,
  type CompletedResult,
  RunError,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const schema = { type: 'object' };

describe('deferred tools are opt-in (deferredTools)', () => {
  test('a tool that defers on an agent without deferredTools fails the run at the tool stage with deferral-not-enabled ConfigError', async () => {
    let executed = 0;
    const gated = defineTool({
      name: 'gated',
      schema,
      execute: () => {
        executed++;
        throw requireApproval('needs sign-off');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'gated' }]),
      textResponse('never'),
    ]);
    const agent = new Agent({ model, tools: [gated] });

    const error = await agent.run('go').then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('tool');
    expect(findError(error, (e) => ToolError.is(e))?.callId).toBe('c1');
    const cause = findError(error, (e) => ConfigError.is(e, 'agent', 'deferral-not-enabled'));
    expect(cause?.message).toContain('set `deferredTools: true`');
    expect(executed).toBe(1);
    expect(model.calls).toBe(1);
  });

  test('an approval-gated tool on an agent without deferredTools is a construction error naming the tool', () => {
    const gated = defineTool({ name: 'wire_money', schema, approval: true, execute: () => 'sent' });
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [gated] })).toThrow(ConfigError);
    expect(() => new Agent({ model: new ScriptedModel([]), tools: [gated] })).toThrow(
      /tool "wire_money" requires approval.*deferredTools: true/,
    );
  });

  test('approval: false needs no opt-in, and run() of a non-pausable agent is typed as a completed result', async () => {
    const open = defineTool({ name: 'open', schema, approval: false, execute: () => 'opened' });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'open' }]),
      textResponse('done'),
    ]);
    const agent = new Agent({ model, tools: [open] });
    const result: CompletedResult<string> = await agent.run('go');
    // No narrowing on `pending` is needed: the output is a string.
    expect(result.output.toUpperCase()).toBe('DONE');
    expect(result.pending).toBeUndefined();
  });

  test('with deferredTools the same deferral pauses the run instead', async () => {
    const gated = defineTool({
      name: 'gated',
      schema,
      execute: () => Promise.reject(requireApproval('needs sign-off')),
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'gated' }])]);
    const result = await new Agent({ model, tools: [gated], deferredTools: true }).run('go');
    expect(result.pending?.approvals).toEqual([
      { callId: 'c1', toolName: 'gated', args: '{}', reason: 'needs sign-off' },
    ]);
    expect(result.output).toBeUndefined();
  });
});
