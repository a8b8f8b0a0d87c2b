/**
 * The whole MCP client against the official reference server `server-everything` (a dev
 * dependency here; `npm install @modelcontextprotocol/server-everything` elsewhere), offline:
 * resources (templates, text and binary, as a tool or as context), prompts (as a run's history),
 * and the client capabilities — sampling answered by a golem model under an approval hook,
 * elicitation answered by a callback, roots — plus progress as run events.
 */
import { dirname, join } from 'node:path';
import { Agent } from 'golem';
import { connectMcp } from 'golem/mcp';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const everything = await connectMcp({
    name: 'everything',
    transport: { kind: 'stdio', command: process.execPath, args: [SERVER, 'stdio'] },
    // The server may ask our model to write something: a golem model answers, within limits.
    sampling: {
      model: new ScriptedModel([textResponse('Tides follow the moon.')]),
      maxTokens: 256,
      approve: (request) => {
        log(
          `sampling asked (${request.maxTokens} tokens max): ${request.messages[0]?.content ?? ''}`,
        );
        return true;
      },
    },
    // The server may ask the user to fill in a form: a callback answers (a UI, in a real app).
    elicitation: {
      handler: (request) => {
        log(`elicitation asked: ${request.message}`);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
    },
    roots: [{ uri: 'file:///home/ada/project', name: 'project' }],
  });
  try {
    // Resources: templates, a text read and a binary read (timestamps cut off for the log).
    for (const template of await everything.listResourceTemplates())
      log(`template: ${template.uriTemplate}`);
    const [text] = await everything.readResource('demo://resource/dynamic/text/1');
    log(`text: ${(text?.text ?? '').split(' created at')[0] ?? ''}`);
    const [blob] = await everything.readResource('demo://resource/dynamic/blob/1');
    log(
      `blob: ${blob?.mimeType ?? ''}, ${
        Buffer.from(blob?.blob ?? [])
          .toString('utf8')
          .split(' created at')[0] ?? ''
      }`,
    );

    // Exposing resources to a model: on demand as a tool (an enum of the selected URIs), or
    // read into the instructions on every run (small, always-relevant documents).
    const readDocs = await everything.resourceTool({
      select: (resource) => resource.uri.endsWith('/instructions.md'),
      name: 'read_doc',
    });
    log(`tool ${readDocs.name}: ${JSON.stringify(readDocs.schema.properties)}`);
    const context = everything.resourceContext(
      ['demo://resource/static/document/instructions.md'],
      {
        maxBytes: 60,
      },
    );
    log(`context: ${(await context()).split('\n').slice(0, 2).join(' | ')}`);

    // A prompt as the history of a run.
    const prompt = await everything.getPrompt('args-prompt', { city: 'Lagos' });
    const chat = new Agent({ model: new ScriptedModel([textResponse('Hot and humid.')]) });
    const answer = await chat.run('One line, please.', { history: [...prompt.messages] });
    log(`prompt "${prompt.text}" -> ${answer.output}`);

    // Tools that make the server call back into the client, and one that reports progress.
    const tools = await everything.tools({
      include: [
        'trigger-sampling-request',
        'trigger-elicitation-request',
        'get-roots-list',
        'trigger-long-running-operation',
      ],
    });
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'c1', name: 'trigger-sampling-request', args: { prompt: 'Why tides?' } },
        ]),
        toolCallResponse([{ id: 'c2', name: 'trigger-elicitation-request', args: {} }]),
        toolCallResponse([{ id: 'c3', name: 'get-roots-list', args: {} }]),
        toolCallResponse([
          { id: 'c4', name: 'trigger-long-running-operation', args: { duration: 0.03, steps: 3 } },
        ]),
        textResponse('All done.'),
      ]),
      tools,
    });
    const result = await agent.run('Exercise the server.', {
      observer: (event) => {
        if (event.kind === 'tool_progress')
          log(`progress: ${event.update.progress}/${event.update.total ?? '?'}`);
      },
    });
    for (const message of result.messages.filter((m) => m.role === 'tool')) {
      const lines = (message.content ?? '').split('\n');
      const shown = lines.find((line) => /Tides|Name:|URI:|completed/.test(line)) ?? lines[0];
      log(`${message.toolName ?? ''} -> ${(shown ?? '').trim()}`);
    }
  } finally {
    await everything.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
