/**
 * The Go original's documentation examples, translated one file each and run in the order the Go
 * docs list them. Each prints exactly the Go example's `Output:` block.
 */
import { main as agent } from './agent';
import { main as asTool } from './as-tool';
import { main as runStream } from './run-stream';
import { main as runWithHistory } from './run-with-history';
import { main as withInstructionsFunc } from './with-instructions-func';
import { main as withOutputRetries } from './with-output-retries';
import { main as withOutputSchema } from './with-output-schema';
import { main as withOutputTool } from './with-output-tool';
import { main as withToolRetries } from './with-tool-retries';
import { main as withUsageLimit } from './with-usage-limit';

const examples: [name: string, run: (log: (line: string) => void) => Promise<void>][] = [
  ['Agent', agent],
  ['AsTool', asTool],
  ['RunStream', runStream],
  ['RunWithHistory', runWithHistory],
  ['WithInstructionsFunc', withInstructionsFunc],
  ['WithOutputRetries', withOutputRetries],
  ['WithOutputSchema', withOutputSchema],
  ['WithOutputTool', withOutputTool],
  ['WithToolRetries', withToolRetries],
  ['WithUsageLimit', withUsageLimit],
];

export async function main(log: (line: string) => void = console.log): Promise<void> {
  for (const [name, run] of examples) {
    log(`== ${name}`);
    await run(log);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
