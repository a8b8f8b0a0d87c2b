import { IsInt, IsString } from 'class-validator';
import {
  GuardrailError,
  RunError,
  verdict,
  type GuardrailInput,
  type GuardrailToolCall,
  type RunEvent,
  ConfigError,
} from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Guardrail,
  OUTPUT_TYPE,
  Output,
  Tool,
  agentFromClass,
  compileAgentClass,
} from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

class Reply {
  @IsString() text!: string;
  @IsInt() confidence!: number;
}

class TransferArgs {
  @IsInt() amount!: number;
}

interface User {
  name: string;
}

@Agent({
  outputRetries: 1,
  guardrails: { input: [{ name: 'declared', check: () => undefined }] },
})
@Output(Reply)
class BankAgent {
  declare readonly [OUTPUT_TYPE]: Reply;
  declare readonly [DEPS_TYPE]: User;
  readonly log: string[] = [];

  @Guardrail('input')
  noCardNumbers(input: GuardrailInput) {
    this.log.push(`input:${input.prompt}`);
    return verdict.rewrite(input.prompt.replace(/\d{4}-\d{4}/g, '[card]'));
  }

  @Guardrail('output', { onTrip: 'retry' })
  confident(output: Reply) {
    this.log.push(`output:${output instanceof Reply ? 'Reply' : 'plain'}`);
    return output.confidence < 50 ? verdict.trip('confidence must be at least 50') : undefined;
  }

  @Guardrail('tool_input', { name: 'cap', tools: ['transfer'] })
  capBefore(call: GuardrailToolCall) {
    this.log.push(`before:${JSON.stringify(call.args)}`);
    return (call.args as { amount: number }).amount > 100
      ? verdict.trip('over the limit', { limit: 100 })
      : undefined;
  }

  @Guardrail('tool_output', { name: 'cap' })
  capAfter(call: GuardrailToolCall & { result: string }) {
    this.log.push(`after:${call.result}`);
  }

  @Tool({ description: 'Transfer money' })
  transfer(args: TransferArgs): string {
    this.log.push(`transfer:${args.amount}`);
    return 'done';
  }
}

describe('@Guardrail methods', () => {
  test('run on the instance, in order, with the validated @Output instance', async () => {
    const instance = new BankAgent();
    const events: RunEvent[] = [];
    const model = new ScriptedModel([
      toolCallResponse([{ id: 't', name: 'transfer', args: { amount: 20 } }]),
      textResponse('{"text":"sent","confidence":10}'),
      textResponse('{"text":"sent","confidence":90}'),
    ]);
    const agent = agentFromClass(instance, { model, onEvent: (e) => events.push(e) });

    const result = await agent.run('pay 1234-5678', { deps: { name: 'Ada' } });

    expect(result.output).toBeInstanceOf(Reply);
    expect(model.requests[0]?.messages.at(-1)?.content).toBe('pay [card]');
    expect(instance.log).toEqual([
      'input:pay 1234-5678',
      'before:{"amount":20}',
      'transfer:20',
      'after:done',
      'output:Reply',
      'output:Reply',
    ]);
    const checks = events
      .filter((e) => e.kind === 'guardrail')
      .map((e) => `${e.guardrail.name}:${e.guardrail.outcome}`);
    expect(checks).toEqual([
      'declared:pass',
      'noCardNumbers:rewrite',
      'cap:pass',
      'cap:pass',
      'confident:retry',
      'confident:pass',
    ]);
  });

  test('a tool trip ends the run at the guardrail stage with the details', async () => {
    const instance = new BankAgent();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 't', name: 'transfer', args: { amount: 500 } }]),
    ]);
    const error = await agentFromClass(instance, { model })
      .run('pay', { deps: { name: 'Ada' } })
      .catch((e: unknown) => e);

    expect(RunError.is(error) && error.stage).toBe('guardrail');
    const cause = (error as RunError).cause;
    expect(GuardrailError.is(cause) && cause.details).toEqual({ limit: 100 });
    expect(instance.log).not.toContain('transfer:500');
  });

  test('compiles into the definition', () => {
    expect(compileAgentClass(BankAgent).guardrails.map((g) => [g.name, g.phase])).toEqual([
      ['noCardNumbers', 'input'],
      ['confident', 'output'],
      ['cap', 'tool_input'],
      ['cap', 'tool_output'],
    ]);
  });

  test.each([
    [
      'an unknown phase',
      () => {
        @Agent()
        class A {
          @Guardrail('inputs' as 'input') g() {
            return undefined;
          }
        }
        return A;
      },
      /unknown phase "inputs"/,
    ],
    [
      'mode on an output guardrail',
      () => {
        @Agent()
        class A {
          @Guardrail('output', { mode: 'parallel' }) g() {
            return undefined;
          }
        }
        return A;
      },
      /`mode` is for input guardrails only/,
    ],
    [
      'onTrip on an input guardrail',
      () => {
        @Agent()
        class A {
          @Guardrail('input', { onTrip: 'retry' }) g() {
            return undefined;
          }
        }
        return A;
      },
      /`onTrip` is for output and tool guardrails only/,
    ],
    [
      'tools on an input guardrail',
      () => {
        @Agent()
        class A {
          @Guardrail('input', { tools: ['x'] }) g() {
            return undefined;
          }
        }
        return A;
      },
      /`tools` is for tool guardrails only/,
    ],
    [
      'a static method',
      () => {
        @Agent()
        class A {
          @Guardrail('input') static g() {
            return undefined;
          }
        }
        return A;
      },
      /static member/,
    ],
  ])('%s is a decorators ConfigError naming the class and member', (_what, declare, message) => {
    let error: unknown;
    try {
      compileAgentClass(declare());
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error, 'decorators')).toBe(true);
    expect((error as ConfigError).reason).toBe('invalid-guardrail');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain('A');
  });
});
