import { IsInt, Min } from 'class-validator';
import { verdict, type GuardrailToolCall } from 'golem';
import { Agent, Guardrail, Tool, agentFromClass } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

class TransferArgs {
  @IsInt() @Min(1) amount!: number;
}

@Agent({ toolRetries: 1 })
class PayAgent {
  readonly log: string[] = [];

  @Guardrail('tool_input', { tools: ['transfer'] })
  cap(call: GuardrailToolCall) {
    const args = call.args as TransferArgs;
    this.log.push(
      `before:${args instanceof TransferArgs ? 'TransferArgs' : 'plain'}:${args.amount}`,
    );
    return args.amount > 100 ? verdict.trip('over the limit') : undefined;
  }

  @Tool({ description: 'Transfer money' })
  transfer(args: TransferArgs): string {
    this.log.push(`transfer:${args.amount}`);
    return 'done';
  }
}

test('a tool guardrail sees the validated DTO instance; invalid arguments never reach it', async () => {
  const instance = new PayAgent();
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'a', name: 'transfer', args: { amount: 0 } }]),
    toolCallResponse([{ id: 'b', name: 'transfer', args: { amount: 20 } }]),
    textResponse('sent'),
  ]);
  await agentFromClass(instance, { model }).run('pay 20');
  expect(instance.log).toEqual(['before:TransferArgs:20', 'transfer:20']);
  expect(model.requests[1]?.messages.at(-1)?.content).toContain('amount');
});
