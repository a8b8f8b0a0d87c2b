/**
 * Document and audio input: a PDF, a text file and a WAV clip ride on the prompt as parts
 * (`documentData`, `textDocument`, `audioData`). The run keeps them in its evidence; each provider
 * adapter maps them to its own wire format — shown here offline, with a `fetch` that records the
 * request instead of sending it — and a part a provider cannot take is refused before anything is
 * sent, with an `UnsupportedPartError` naming the provider and the part.
 */
import {
  Agent,
  UnsupportedPartError,
  audioData,
  decodeMessages,
  documentData,
  encodeMessages,
  textDocument,
  type Part,
} from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { FunctionModel, textResponse } from 'golem/testing';

// Stand-ins for files read with fs.readFile: a PDF header and a 4-byte WAV header.
const pdf = new TextEncoder().encode('%PDF-1.7\n');
const wav = Uint8Array.from([0x52, 0x49, 0x46, 0x46]);

/** A `fetch` that records the JSON body it is given and answers with `reply`. */
function recorder(reply: unknown): {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  bodies: Record<string, unknown>[];
} {
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    fetch: (_url, init) => {
      bodies.push(
        JSON.parse(typeof init.body === 'string' ? init.body : '{}') as Record<string, unknown>,
      );
      return Promise.resolve(
        new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } }),
      );
    },
  };
}

/** The `type` (or first key) of each wire part after the text, e.g. `file`, `document`. */
function kinds(parts: unknown[]): string {
  return parts
    .slice(1)
    .map((part) => {
      const record = part as Record<string, unknown>;
      return typeof record.type === 'string' ? record.type : (Object.keys(record)[0] ?? '?');
    })
    .join(', ');
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // 1. The run: parts reach the model on the prompt message and stay in the evidence.
  const model = new FunctionModel((request) => {
    const parts = request.messages.at(-1)?.parts ?? [];
    return textResponse(
      `I received ${parts.map((p) => `${p.kind} (${p.mediaType ?? '?'})`).join(', ')}.`,
    );
  });
  const parts: Part[] = [
    documentData('application/pdf', pdf, { name: 'invoice.pdf' }),
    textDocument('Payment terms: 30 days.', { name: 'terms.txt' }),
    audioData('audio/wav', wav),
  ];
  const result = await new Agent({ model }).run('Summarise the invoice and the voice note.', {
    parts,
  });
  log(result.output);
  const stored = decodeMessages(encodeMessages(result.messages));
  log(
    `durable JSON keeps ${stored[0]?.parts?.length ?? 0} parts: ${(stored[0]?.parts ?? []).map((p) => p.name ?? p.kind).join(', ')}`,
  );

  // 2. The wire: the same PDF on three providers (recorded, not sent).
  const prompt = 'What is the total?';
  const openaiWire = recorder({
    choices: [{ index: 0, message: { role: 'assistant', content: '42' }, finish_reason: 'stop' }],
  });
  await openai({ model: 'gpt-4o', apiKey: 'offline', fetch: openaiWire.fetch }).generate({
    messages: [{ role: 'user', content: prompt, parts: [parts[0] as Part, parts[2] as Part] }],
    tools: [],
  });
  const chat = openaiWire.bodies[0]?.messages as { content: unknown[] }[];
  log(`openai chat completions: ${kinds(chat[0]?.content ?? [])}`);

  const claudeWire = recorder({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: '42' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  await anthropic({
    model: 'claude-sonnet-4-5',
    apiKey: 'offline',
    fetch: claudeWire.fetch,
  }).generate({
    messages: [{ role: 'user', content: prompt, parts: [parts[0] as Part, parts[1] as Part] }],
    tools: [],
  });
  const claude = claudeWire.bodies[0]?.messages as { content: { source?: { type: string } }[] }[];
  log(
    `anthropic: ${(claude[0]?.content ?? [])
      .slice(1)
      .map((b) => `document/${b.source?.type ?? '?'}`)
      .join(', ')}`,
  );

  const geminiWire = recorder({
    candidates: [{ content: { role: 'model', parts: [{ text: '42' }] }, finishReason: 'STOP' }],
  });
  await gemini({ model: 'gemini-2.5-flash', apiKey: 'offline', fetch: geminiWire.fetch }).generate({
    messages: [{ role: 'user', content: prompt, parts: [parts[0] as Part, parts[2] as Part] }],
    tools: [],
  });
  const contents = geminiWire.bodies[0]?.contents as {
    parts: { inlineData?: { mimeType: string } }[];
  }[];
  log(
    `gemini: ${(contents[0]?.parts ?? [])
      .slice(1)
      .map((p) => `inlineData ${p.inlineData?.mimeType ?? '?'}`)
      .join(', ')}`,
  );

  // 3. A part a provider cannot take fails up front: nothing is sent.
  const refused = recorder({});
  try {
    await anthropic({
      model: 'claude-sonnet-4-5',
      apiKey: 'offline',
      fetch: refused.fetch,
    }).generate({
      messages: [{ role: 'user', content: 'Transcribe this.', parts: [parts[2] as Part] }],
      tools: [],
    });
    throw new Error('expected the audio part to be refused');
  } catch (error) {
    if (!UnsupportedPartError.is(error)) throw error;
    log(`refused: ${error.message}`);
  }
  log(`requests sent for the refused part: ${refused.bodies.length}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
