/**
 * Fallback: a primary model with a fallback and a request bound. `FallbackModel` tries a backup
 * when the primary fails with a retryable error; `maxAttempts` retries the whole chain after a
 * backoff; a `requests` usage bound caps what retries may spend. The wait between attempts goes
 * through an injected `sleep`, so this example (like your tests) never waits on a real timer.
 */
import {
  Agent,
  FallbackModel,
  ModelHTTPError,
  RunError,
  describeError,
  type RunEvent,
  type Sleep,
} from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

const overloaded = (provider: string): ModelHTTPError =>
  new ModelHTTPError({ status: 503, provider, message: 'overloaded' });

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const primary = new ScriptedModel([], { name: 'primary' });
  const backup = new ScriptedModel([], { name: 'backup' });

  // Record the waits instead of sleeping: production uses the default real-timer sleep.
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
  };

  const agent = new Agent({
    // Tries primary, then backup, when the failure is retryable (408, 429, 5xx, transport faults).
    model: new FallbackModel([primary, backup]),
    // Up to 3 attempts per model turn; the default backoff is 500 ms doubling, capped at 30 s.
    maxAttempts: 3,
    sleep,
    // Every attempt counts as a request, so this bound stops a run that needed too many retries.
    usageLimit: { requests: 2 },
    // One line per failed attempt; the agent sees one attempt per fallback chain call.
    onEvent: (event: RunEvent) => {
      if (event.kind === 'model_end' && event.error !== undefined)
        log(`  attempt ${event.attempt} failed: ${describeError(event.error)}`);
    },
  });

  const report = async (label: string, prompt: string): Promise<void> => {
    log(`${label}:`);
    waits.length = 0;
    try {
      const result = await agent.run(prompt);
      log(
        `  output: ${result.output} (requests: ${result.requests}, waits: [${waits.join(', ')}] ms)`,
      );
    } catch (error) {
      if (!RunError.is(error)) throw error;
      log(
        `  failed at the ${error.stage} stage: ${describeError(error.cause)} (waits: [${waits.join(', ')}] ms)`,
      );
    }
  };

  // 1. The primary is down; the backup answers within the same attempt.
  primary.push(overloaded('primary'));
  backup.push(textResponse('Nairobi.'));
  await report('primary down, backup answers', 'Capital of Kenya?');

  // 2. Both are down once: the chain fails, the agent waits and retries from the primary.
  primary.push(overloaded('primary'), textResponse('Accra.'));
  backup.push(overloaded('backup'));
  await report('both down once, retried', 'Capital of Ghana?');

  // 3. A longer outage: the third attempt would succeed, but it is the third request of the run.
  primary.push(overloaded('primary'), overloaded('primary'), textResponse('Dakar.'));
  backup.push(overloaded('backup'), overloaded('backup'));
  await report('longer outage, request bound', 'Capital of Senegal?');

  log(`calls received: primary ${primary.calls}, backup ${backup.calls}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
