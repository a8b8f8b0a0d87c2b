/**
 * Guardrails: checks around a run. An input guardrail redacts card numbers before the model sees
 * the prompt; a tool guardrail caps transfers (a trip asks the model to correct itself); an output
 * guardrail rejects answers that leak an account number. A second run shows a trip ending the run
 * at the `guardrail` stage, with the evidence and the guardrail's reason.
 */
import { IsInt } from 'class-validator';
import { RunError, verdict, type GuardrailInput, type GuardrailToolCall } from 'golem';
import { Agent, Guardrail, Tool, agentFromClass } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

class TransferArgs {
  @IsInt() amount!: number;
}

@Agent({ toolRetries: 1 })
class BankAgent {
  @Guardrail('input')
  redactCards(input: GuardrailInput) {
    return verdict.rewrite(input.prompt.replace(/\b\d{4}(-\d{4}){3}\b/g, '[card]'));
  }

  @Guardrail('tool_input', { tools: ['transfer'], onTrip: 'retry' })
  cap(call: GuardrailToolCall) {
    // The validated arguments: a TransferArgs instance (invalid calls never reach the guardrail).
    const { amount } = call.args as TransferArgs;
    return amount > 100 ? verdict.trip(`transfers are capped at 100, got ${amount}`) : undefined;
  }

  @Guardrail('output')
  noAccountNumbers(output: string) {
    return /\b\d{8}\b/.test(output)
      ? verdict.trip('the answer shows an account number', { rule: 'pii' })
      : undefined;
  }

  @Tool({ description: 'Transfer money to the saved payee' })
  transfer(args: TransferArgs): string {
    return `transferred ${args.amount}`;
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'transfer', args: { amount: 500 } }]),
    toolCallResponse([{ id: 'call-2', name: 'transfer', args: { amount: 100 } }]),
    textResponse('Done: 100 sent.'),
  ]);
  const agent = agentFromClass(new BankAgent(), {
    model,
    onEvent: (event) => {
      if (event.kind === 'guardrail') {
        const { name, phase, outcome, reason } = event.guardrail;
        log(`check ${name} (${phase}): ${outcome}${reason === undefined ? '' : ` — ${reason}`}`);
      }
    },
  });

  const result = await agent.run('Pay 500 with card 4111-1111-1111-1111');
  log(`the model saw: ${model.requests[0]?.messages.at(-1)?.content ?? ''}`);
  log(`output: ${result.output}`);

  const leaky = agentFromClass(new BankAgent(), {
    model: new ScriptedModel([textResponse('Your account 12345678 is ready.')]),
  });
  try {
    await leaky.run('Which account?');
  } catch (error) {
    if (!RunError.is(error)) throw error;
    log(`run failed at the ${error.stage} stage: ${error.message}`);
    log(`evidence kept: ${error.partial?.messages.length ?? 0} messages`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
