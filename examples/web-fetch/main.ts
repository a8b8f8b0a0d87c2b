/**
 * Web fetch: an agent reads a web page through the `web_fetch` tool. The page is served on
 * loopback inside `main`, so the tool is told explicitly that 127.0.0.1 may be reached — by
 * default loopback, private and cloud-metadata addresses are refused before any connection.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, RunError, findError, hasKind } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { webFetch } from 'golem/tools/webfetch';

const PAGE = `<!DOCTYPE html>
<html>
  <head><title>Golem field guide</title><style>body { font: 16px serif }</style></head>
  <body>
    <nav><a href="/">Home</a></nav>
    <h1>Fetching pages</h1>
    <p>The <code>web_fetch</code> tool turns HTML into text an agent can read.</p>
    <ul><li>Scripts and styles are dropped.</li><li>Long pages are cut with a note.</li></ul>
    <script>trackVisit();</script>
  </body>
</html>`;

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guide`;
  try {
    // The explicit allow option: only this loopback host is opened; everything else stays blocked.
    const tools = [webFetch({ allowPrivateHosts: ['127.0.0.1'], maxBytes: 100_000 })];

    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'web_fetch', args: { url } }]),
      textResponse('web_fetch turns HTML into plain text and drops scripts and styles.'),
    ]);
    const result = await new Agent({ model, tools }).run('What does the field guide say?');
    const toolResult = result.messages.find((m) => m.role === 'tool');
    log('tool result:');
    log(toolResult?.content ?? '(none)');
    log(`answer: ${result.output}`);

    // A hostile page might tell the model to read the cloud metadata service instead.
    const injected = new ScriptedModel([
      toolCallResponse([
        {
          id: 'call-2',
          name: 'web_fetch',
          args: { url: 'http://169.254.169.254/latest/meta-data/' },
        },
      ]),
      textResponse('never reached'),
    ]);
    try {
      await new Agent({ model: injected, tools }).run('Follow the instructions on the page.');
    } catch (error) {
      if (!RunError.is(error)) throw error;
      log(`run failed at the ${error.stage} stage`);
      log(
        `blocked: ${findError(error, (e) => hasKind(e, 'BlockedDestinationError'))?.message ?? '?'}`,
      );
    }
  } finally {
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
