/** The recorded Google fixtures and the Golem requests equivalent to what their clients sent. */
import { Buffer } from 'node:buffer';
import { imageData, type ModelRequest, type ToolSpec } from 'golem';
import { systemMessage, userMessage } from '../../../../src/core/contract/message';
import type { GeminiOptions } from 'golem/providers/gemini';
import { request } from '../../../src/providers/gemini/helpers';
import { sharedJson } from './recorded';

export interface Expected {
  http: { url: string | null; status: number | null };
  expected: {
    /** The recorded `responseId`. */
    id?: string | null;
    model?: string;
    text?: string;
    reasoning?: { text: string }[];
    thought_signatures?: { on_part: string; length: number }[];
    tool_calls?: { name: string; args: unknown }[];
    /** `output_tokens` is `candidatesTokenCount`; thoughts are `thoughts_tokens`, apart. */
    usage?: {
      input_tokens: number;
      output_tokens: number;
      thoughts_tokens: number | null;
      cached_content_tokens: number | null;
    };
    finish_reason_unified_suggestion?: string;
    error?: { http_status: number; body: { error: { message: string; status: string } } };
  };
}

export interface Case {
  fixture: string;
  body: 'json' | 'sse' | 'chunks';
  request: ModelRequest;
  options?: Partial<GeminiOptions>;
  /** Compare our `contents`/system/generationConfig with the recorded request. */
  recorded?: boolean;
}

const noArgs: ToolSpec['schema'] = { type: 'object', properties: {}, additionalProperties: false };
const tool = (name: string, description: string, schema: ToolSpec['schema']): ToolSpec => ({
  name,
  description,
  schema,
});
const secretTool = tool(
  'secret_retrieval_tool',
  'A tool that requires a password to retrieve a secret.',
  {
    type: 'object',
    properties: { password: { title: 'Password', type: 'string' } },
    required: ['password'],
  },
);
const capitalTool = tool('get_capital', 'Get the capital of a country.', {
  type: 'object',
  additionalProperties: false,
  properties: { country: { description: 'The country name.', type: 'string' } },
  required: ['country'],
});
const citySchema = {
  description: 'A city and its country.',
  properties: { city: { type: 'string' }, country: { type: 'string' } },
  required: ['city', 'country'],
  title: 'CityLocation',
  type: 'object',
};
const recordedJpeg = () => {
  const recorded = sharedJson<{ contents: { parts: { inlineData?: { data: string } }[] }[] }>(
    'g11-image-input.request.json',
  );
  return Buffer.from(recorded.contents[0]?.parts[1]?.inlineData?.data ?? '', 'base64url');
};

export const cases: Case[] = [
  {
    fixture: 'g01-text',
    body: 'json',
    request: request([systemMessage('You are a chatbot.'), userMessage('Hello!')]),
    recorded: true,
  },
  {
    fixture: 'g02-text.stream',
    body: 'sse',
    request: request(
      [systemMessage('You are a helpful chatbot.'), userMessage('What is the capital of France?')],
      { settings: { temperature: 0 } },
    ),
    options: { model: 'gemini-2.0-flash-exp' },
    recorded: true,
  },
  { fixture: 'g03-text-thoughtsignature.stream', body: 'chunks', request: request([]) },
  {
    fixture: 'g04-tool-call',
    body: 'json',
    request: request(
      [systemMessage('You are a helpful chatbot.'), userMessage('What is the capital of France?')],
      { tools: [capitalTool], settings: { temperature: 0 } },
    ),
    options: { model: 'gemini-2.5-pro' },
    recorded: true,
  },
  {
    fixture: 'g05-parallel-tool-calls',
    body: 'json',
    request: request(
      [
        systemMessage('Tell three jokes. Generate topics with the generate_topic tool.'),
        userMessage(''),
      ],
      {
        tools: [
          tool('generate_topic', '', noArgs),
          {
            ...tool('final_result', 'The final response which ends this conversation', {
              type: 'object',
              properties: { response: { type: 'array', items: { type: 'string' } } },
              required: ['response'],
            }),
            output: true,
          },
        ],
      },
    ),
    options: { model: 'gemini-3-flash-preview' },
    recorded: true,
  },
  {
    fixture: 'g06-tool-call-thoughtsignature.stream',
    body: 'sse',
    request: request([userMessage('What is the capital of the user country? Call the tool')], {
      tools: [tool('get_country', '', noArgs)],
    }),
    options: { model: 'gemini-3-pro-preview' },
    recorded: true,
  },
  {
    fixture: 'g07-parallel-tool-calls.stream',
    body: 'sse',
    request: request(
      [
        systemMessage('Use parallel tool calling.'),
        userMessage(
          'Please retrieve the secrets associated with each of these passwords: mellon,radiance',
        ),
      ],
      { tools: [secretTool] },
    ),
    recorded: true,
  },
  { fixture: 'g08-vertex-partial-args.stream', body: 'chunks', request: request([]) },
  {
    fixture: 'g09-structured-output',
    body: 'json',
    request: request([userMessage('What is the largest city in Mexico?')], {
      outputSchema: citySchema,
    }),
    options: { model: 'gemini-2.0-flash' },
    recorded: true,
  },
  {
    fixture: 'g10-thinking.stream',
    body: 'sse',
    request: request(
      [systemMessage('You are a helpful assistant.'), userMessage('How do I cross the street?')],
      { tools: [tool('dummy', '', { type: 'object', properties: {} })] },
    ),
    options: { model: 'gemini-2.5-pro', thinking: { includeThoughts: true } },
    recorded: true,
  },
  {
    fixture: 'g11-image-input',
    body: 'json',
    request: request([
      systemMessage('You are a helpful chatbot.'),
      userMessage('What is this vegetable?', [imageData('image/jpeg', recordedJpeg())]),
    ]),
    options: { model: 'gemini-2.0-flash' },
    recorded: true,
  },
];
