/**
 * The OpenAI-compatible preset table of docs/guides/providers.md, rendered from OPENAI_PRESETS,
 * and a reader for the table in the guide (between the `preset-table` markers).
 */
import { OPENAI_PRESETS, OPENAI_PRESET_NAMES, type OpenAIPresetName } from 'golem/providers/openai';

/** The table's header cells. */
export const PRESET_HEADER = [
  'Preset',
  'Service',
  'Base URL',
  'Key variable',
  'Tools',
  'Structured output',
  'With tools',
  'Strict tools',
  'Stream usage',
  '`maxTokens` sent as',
];

const yes = (flag: boolean): string => (flag ? 'yes' : 'no');

function keyCell(name: OpenAIPresetName): string {
  const { apiKeyEnv, requiresKey } = OPENAI_PRESETS[name];
  if (apiKeyEnv === undefined) return 'none';
  return requiresKey ? `\`${apiKeyEnv}\`` : `\`${apiKeyEnv}\` (optional)`;
}

/** One row of cells per preset, in `OPENAI_PRESET_NAMES` order. */
export function presetRows(): string[][] {
  return OPENAI_PRESET_NAMES.map((name) => {
    const preset = OPENAI_PRESETS[name];
    const c = preset.capabilities;
    return [
      `\`${name}\``,
      preset.label,
      `\`${preset.baseURL}\``,
      keyCell(name),
      yes(c.tools),
      yes(c.structuredOutput),
      yes(c.structuredOutputWithTools),
      yes(c.strictTools),
      yes(c.streamUsage),
      `\`${preset.maxTokensField}\``,
    ];
  });
}

/** The table as Markdown (before Prettier pads it), for pasting into the guide. */
export function presetTableMarkdown(): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    line(PRESET_HEADER),
    line(PRESET_HEADER.map(() => '---')),
    ...presetRows().map(line),
  ].join('\n');
}

/** The start and end markers around the table in the guide. */
export const MARKERS = ['<!-- preset-table:start -->', '<!-- preset-table:end -->'] as const;

/** The cells of every row of the first Markdown table between the markers in `text`. */
export function readTable(text: string): string[][] {
  const start = text.indexOf(MARKERS[0]);
  const end = text.indexOf(MARKERS[1]);
  if (start < 0 || end < start) throw new Error(`the guide has no ${MARKERS.join(' … ')} section`);
  return text
    .slice(start + MARKERS[0].length, end)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
}
